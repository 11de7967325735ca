/** Marks server markup in a doc's article that has to be hydrated by its components (src/server-article). */
export const NEEDS_HYDRATION_ATTRIBUTE = 'data-hydrate';
