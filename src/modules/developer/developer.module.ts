import { moduleFromParts } from '../../kernel/module-parts.js'
import { logsModule } from './logs/logs.module.js'
import { oauthModule } from './oauth/oauth.module.js'
import { developerSandboxModule } from './sandbox/sandbox.module.js'
import { developerSdkModule } from './sdk-generations/sdk-generations.module.js'
import { snapshotsModule } from './snapshots/snapshots.module.js'
import { terraformModule } from './terraform/terraform.module.js'

/**
 * Developer tools (docs/developer-tools.md, docs/oauth.md): one module of six parts, each in its folder with
 * its own routes, tables and services —
 * oauth/ (listOAuthApps, createOAuthApp, updateOAuthApp; /oauth/authorize, /oauth/token, /oauth/revoke),
 * logs/ (listApiLogs, getPublicApiUsage), snapshots/ (listOpenApiSnapshots, createOpenApiSnapshot),
 * terraform/ (listTerraformResources), sandbox/ (listSandboxWorkspaces, createSandboxWorkspace),
 * sdk-generations/ (listSdkGenerations, createSdkGeneration).
 */
export const developerModule = moduleFromParts('developer', [oauthModule, logsModule, snapshotsModule, terraformModule, developerSandboxModule, developerSdkModule])
