// Injected into the second build of the sourcemaps e2e app only (esbuild
// --inject). esbuild's minifier names locals by how often each character
// appears in the bundle, so this text makes it pick other one-letter names
// for the same code: the TypeError's message changes ("r is not a
// function" becomes "o is not a function") while src/ stays the same.
globalThis.buildInfo = {
  channel: 'canary',
  notes: 'This canary build is the same application bundled again, with this note beside it as an additional module, so that a minifier that names locals by how often each letter appears in the bundle picks a different initial for the same variables in the same functions.',
};
