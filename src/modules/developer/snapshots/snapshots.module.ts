import { defineModule } from '../../../kernel/module.js'
import { OpenApiSnapshotsService } from './openapi-snapshots.service.js'
import { SNAPSHOT_EVENTS } from './snapshots.events.js'
import { snapshotsMigrations } from './snapshots.migrations.js'
import { createOpenApiSnapshot } from './routes/create-openapi-snapshot.route.js'
import { listOpenApiSnapshots } from './routes/list-openapi-snapshots.route.js'

/** The OpenAPI snapshots part of the developer module (merged into `developer` by the lead once all parts exist). */
export const snapshotsModule = defineModule({
  name: 'developer-snapshots',
  migrations: snapshotsMigrations,
  routes: [listOpenApiSnapshots, createOpenApiSnapshot],
  init(kernel, services) {
    kernel.events.declare(SNAPSHOT_EVENTS)
    services.openApiSnapshots = new OpenApiSnapshotsService(kernel)
  },
})
