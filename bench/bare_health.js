/*
| The floor of bench/drop.js: a node:http server that answers GET /health with a constant JSON
| and does nothing else (no database, no pool, no timers), so its CPU per answer is what any
| answer of Node's HTTP stack costs on this machine in this run. The sold-out answer is held to it.
*/
import { createServer } from 'node:http'

const BODY = JSON.stringify({ status: 'ok' })
const NOT_FOUND = JSON.stringify({ success: false, error: 'Not found', code: 'not_found' })

function send(response, status, body) {
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  })
  response.end(body)
}

const server = createServer((request, response) => {
  if (request.method === 'GET' && request.url === '/health') return send(response, 200, BODY)
  return send(response, 404, NOT_FOUND)
})
server.keepAliveTimeout = 65_000
server.listen(Number(process.env.BARE_PORT), '127.0.0.1')
process.on('SIGTERM', () => server.close(() => process.exit(0)))
