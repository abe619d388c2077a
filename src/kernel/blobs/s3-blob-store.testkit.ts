import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import S3rver from 's3rver'

/**
 * A local S3-compatible server speaking S3's real REST wire protocol (s3rver: SigV4, XML errors, Range,
 * ListObjectsV2), on 127.0.0.1, with one bucket: what the S3 store is tested against.
 */
export async function startS3(bucket = 'svc-test'): Promise<{ endpoint: string; bucket: string; env: Record<string, string>; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 's3rver-'))
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir, configureBuckets: [{ name: bucket, configs: [] }] })
  const address = (await server.run()) as unknown as { port: number }
  const endpoint = `http://127.0.0.1:${address.port}`
  return {
    endpoint,
    bucket,
    // s3rver's fixed account (it checks the signature with it).
    env: { BLOB_STORE: 's3', S3_BUCKET: bucket, S3_ENDPOINT: endpoint, S3_FORCE_PATH_STYLE: 'true', S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER', S3_REGION: 'us-east-1' },
    async close() {
      await server.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
