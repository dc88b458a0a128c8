import { shutdownApp } from './app.js'
import { runProgram } from './run.js'

try {
  process.exitCode = await runProgram(process.argv)
} finally {
  await shutdownApp()
}
