// The ingest worker thread's entry (ingest-pool.ts): runs one task at a time, answers with its outcome.
import { parentPort } from 'node:worker_threads'
import { runIngestTask, type IngestTask } from './ingest-task.js'

async function answer({ id, task }: { id: number; task: IngestTask }): Promise<void> {
  try {
    parentPort!.postMessage({ id, outcome: await runIngestTask(task) })
  } catch (err) {
    parentPort!.postMessage({ id, error: err instanceof Error ? err.message : String(err) })
  }
}

// `void`: answer() turns every failure of the task into a message to the pool; it does not reject.
parentPort!.on('message', (message: { id: number; task: IngestTask }) => void answer(message))
