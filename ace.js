/*
| JavaScript entrypoint for ace commands. It registers the TypeScript loader and hands over to
| bin/console.ts. The production build replaces this file with one that imports bin/console.js.
*/
import 'ts-node-maintained/register/esm'

await import('./bin/console.js')
