// gifenc ships no types; src/render/gif.ts describes the part it uses.
declare module 'gifenc';
