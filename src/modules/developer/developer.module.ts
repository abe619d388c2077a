import { moduleFromParts } from '../../kernel/module-parts.js'
import { keysModule } from './keys/keys.module.js'
import { logsModule } from './logs/logs.module.js'
import { oauthModule } from './oauth/oauth.module.js'
import { developerSandboxModule } from './sandbox/sandbox.module.js'
import { developerSdkModule } from './sdk-generations/sdk-generations.module.js'
import { snapshotsModule } from './snapshots/snapshots.module.js'
import { terraformModule } from './terraform/terraform.module.js'

/**
 * Developer tools (docs/developer-tools.md, docs/oauth.md): one module of seven parts, each in its folder with
 * its own routes, tables and services —
 * keys/ (listApiKeys, createApiKey, getApiKey, revokeApiKey),
 * oauth/ (listOAuthApps, createOAuthApp, updateOAuthApp; /oauth/authorize, /oauth/token, /oauth/revoke),
 * logs/ (listApiLogs, getPublicApiUsage), snapshots/ (listOpenApiSnapshots, createOpenApiSnapshot),
 * terraform/ (listTerraformResources), sandbox/ (listSandboxWorkspaces, createSandboxWorkspace),
 * sdk-generations/ (listSdkGenerations, createSdkGeneration).
 */
export const developerModule = {
  ...moduleFromParts('developer', [keysModule, oauthModule, logsModule, snapshotsModule, terraformModule, developerSandboxModule, developerSdkModule]),
  // Developer tooling: apps, tokens, snapshots and generated SDKs, nothing about the people a workspace serves.
  noSubjectData: {
    'oauth_apps.name': 'the name a developer gives an OAuth app',
    'developer_sandbox_workspaces.name': 'the name of a sandbox workspace',
    'developer_sdk_generations.package_name': 'the package name of a generated SDK',
  },
}
