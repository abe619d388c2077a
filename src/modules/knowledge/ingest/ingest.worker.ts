// The ingest worker thread's entry (ingest-pool.ts): runs one task at a time, answers with its outcome.
import { parentPort } from 'node:worker_threads'
import { runIngestTask, type IngestTask } from './ingest-task.js'

parentPort!.on('message', async ({ id, task }: { id: number; task: IngestTask }) => {
  try {
    parentPort!.postMessage({ id, outcome: await runIngestTask(task) })
  } catch (err) {
    parentPort!.postMessage({ id, error: err instanceof Error ? err.message : String(err) })
  }
})
