// The baseline: a bare Fastify hello-world route, same Node and machine, separate process like the service.
import Fastify from 'fastify'

const app = Fastify({ logger: false })
app.get('/hello', async () => ({ hello: 'world' }))
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) })
process.stdout.write('ready\n')
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)))
