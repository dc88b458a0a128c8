#!/usr/bin/env node
/*
| `dropslot`: the operator CLI. Runs the TypeScript sources through the same loader as ace.
*/
import 'ts-node-maintained/register/esm'

await import('./main.js')
