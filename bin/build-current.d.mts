/** True when `built` exists under `root` and no source file under `dirs`, or any of `files`, is newer. */
export function buildIsCurrent(
  root: string,
  built: string,
  inputs: { dirs?: string[]; files?: string[]; endings?: string[] },
): boolean;
