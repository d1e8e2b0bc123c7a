/** The module whose `main(argv)` runs the command line, as a file URL: dist-cli/'s build, or the source. */
export function cliEntry(root?: string): string;

/** The build's list of the project's files it was made from, in dist-cli/ (vite.cli.config.ts writes it). */
export declare const sourcesListName: string;
