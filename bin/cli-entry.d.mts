/** The module whose `main(argv)` runs the command line, as a file URL: dist-cli/'s build, or the source. */
export function cliEntry(root?: string): string;
