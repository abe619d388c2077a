import { Type, type Static } from 'typebox'
import { Page, PageQuery } from '../../../kernel/http/pagination.js'
import { Nullable } from '../../../kernel/http/schemas.js'
import { LANGUAGE_NAMES } from './sdk-folder.js'

const DateTime = Type.String({ format: 'date-time' })
const oneOf = <T extends string>(values: readonly T[], opts: Record<string, unknown> = {}) => Type.Unsafe<T>({ type: 'string', enum: [...values], ...opts })

const Language = oneOf(LANGUAGE_NAMES, { title: 'SdkLanguage', description: 'The client library: node (npm), python (PyPI), php (Composer) or ruby (RubyGems).' })
const Status = oneOf(['queued', 'running', 'succeeded', 'failed'] as const, { title: 'SdkGenerationStatus', description: 'queued → running → succeeded | failed (`error` says why).' })
const Sha256 = Type.String({ pattern: '^[0-9a-f]{64}$' })

export const SdkGeneration = Type.Object(
  {
    id: Type.String({ examples: ['sdkgen_01JD0000000000000000000000'] }),
    object: Type.Literal('sdk_generation'),
    language: Language,
    package_name: Type.String({ description: 'Written into the package manifest (package.json, pyproject.toml, composer.json or the gemspec).' }),
    version: Type.String({ description: 'The package version written into the manifest.' }),
    status: Status,
    error: Nullable(Type.String()),
    api_version: Type.String({ description: 'info.version of the OpenAPI document the client was generated from.' }),
    document_sha256: Type.String({
      pattern: '^[0-9a-f]{64}$',
      description: 'SHA-256 of the document’s canonical JSON (keys sorted, no whitespace): an OpenAPI snapshot of the same document has this sha256.',
    }),
    operations: Nullable(Type.Integer({ minimum: 0, description: 'Operations the generated client covers (once generated).' })),
    archive: Nullable(
      Type.Object(
        {
          format: Type.Literal('zip'),
          filename: Type.String(),
          size_bytes: Type.Integer({ minimum: 0 }),
          sha256: Sha256,
          files: Type.Integer({ minimum: 0 }),
          url: Nullable(Type.String({ description: 'Download link (no key needed) while it works; null once expired.' })),
          expires_at: DateTime,
        },
        { title: 'SdkArchive', description: 'The package archive, once the generation succeeded.' },
      ),
    ),
    created_at: DateTime,
    completed_at: Nullable(DateTime),
  },
  { $id: 'SdkGeneration' },
)
export type SdkGenerationT = Static<typeof SdkGeneration>

export const CreateSdkGenerationBody = Type.Object(
  {
    language: Language,
    package_name: Type.Optional(Type.String({ minLength: 1, maxLength: 214, description: 'Default: the name in the client’s own manifest (e.g. @svc/client).' })),
    version: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Default: the version in the client’s own manifest, else the API version.' })),
  },
  { additionalProperties: false, title: 'CreateSdkGenerationBody' },
)
export type CreateSdkGenerationBodyT = Static<typeof CreateSdkGenerationBody>

export const SdkGenerationList = Page(SdkGeneration, 'SdkGeneration')
export const ListSdkGenerationsQuery = Type.Object({ ...PageQuery, language: Type.Optional(Language), status: Type.Optional(Status) }, { additionalProperties: false })
export type ListSdkGenerationsQueryT = Static<typeof ListSdkGenerationsQuery>
