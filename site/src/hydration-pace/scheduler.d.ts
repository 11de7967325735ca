// react-dom's scheduler (a dependency of this site for that reason) ships no types; one function is used.
declare module 'scheduler' {
  /** Slices of 1000 / fps ms (0 restores the default, 5 ms). */
  export function unstable_forceFrameRate(fps: number): void;
}
