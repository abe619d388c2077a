import { LocalBlobStore, type BlobStore } from './blobs.js'
import { S3BlobStore, type S3Settings } from './s3-blob-store.js'

/** The configured store (BLOB_STORE): a local directory, or an S3 bucket whose SDK loads only then. */
export async function openBlobStore(c: { store: 'local' | 's3'; dir: string; s3: S3Settings | null }): Promise<BlobStore> {
  return c.store === 's3' && c.s3 ? S3BlobStore.create(c.s3) : new LocalBlobStore(c.dir)
}
