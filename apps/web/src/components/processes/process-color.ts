/**
 * One colour per process, the same in the processes panel, the log and the address space: a hue
 * from the pid (the golden angle apart, so neighbouring pids differ), mid lightness so it reads on
 * both themes.
 */
export function processColor(pid: number): string {
  return `hsl(${((pid * 137.508 + 200) % 360).toFixed(1)} 62% 50%)`;
}
