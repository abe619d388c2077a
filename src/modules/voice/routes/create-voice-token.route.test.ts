import assert from 'node:assert/strict'
import { decodeJwt, decodeProtectedHeader, errors, jwtVerify } from 'jose'
import { after, before, describe, it } from 'node:test'
import { assertProblem, newNumber, ok, post, voiceApp, type VoiceApp } from '../voice.testkit.js'

describe('createVoiceToken', () => {
  let h: VoiceApp
  before(async () => (h = await voiceApp()))
  after(() => h.close())

  it('is a JWT laid out like a Twilio access token that verifies with its secret and expires', async () => {
    const num = await newNumber(h)
    const t = await ok(post(h, '/voice/token', { identity: 'agent-ada', ttl_seconds: 600, incoming: true, outgoing: { number_id: num.id } }), 201)
    assert.equal(t.identity, 'agent-ada')
    assert.deepEqual(t.grants.voice, { incoming: { allow: true }, outgoing: { number_id: num.id, phone_number: num.phone_number } })
    assert.deepEqual(decodeProtectedHeader(t.token), { alg: 'HS256', typ: 'JWT', cty: 'twilio-fpa;v=1' })
    const claims = decodeJwt(t.token) as any
    assert.equal(claims.exp - claims.iat, 600)
    assert.equal(claims.grants.identity, 'agent-ada')
    assert.equal(new Date(claims.exp * 1000).toISOString(), t.expires_at)

    // The secret: the service's key for this workspace and mode.
    const secret = h.app.kernel.deriveKey(`voice-token:${h.a.workspaceId}:live`)
    const now = h.app.kernel.clock.now()
    const { payload } = await jwtVerify(t.token, secret, { currentDate: now })
    assert.equal(payload.sub, h.a.workspaceId)
    await assert.rejects(jwtVerify(t.token, h.app.kernel.deriveKey(`voice-token:${h.b.workspaceId}:live`), { currentDate: now }), errors.JWSSignatureVerificationFailed)
    await assert.rejects(jwtVerify(t.token, secret, { currentDate: new Date(now.getTime() + 601_000) }), errors.JWTExpired)
    // The service's own verifier agrees, and refuses it once expired.
    assert.equal((await h.app.services.voice.tokens.verify(t.token)).grants.identity, 'agent-ada')
    h.clock.advance(601_000)
    await assert.rejects(h.app.services.voice.tokens.verify(t.token), errors.JWTExpired)
  })

  it('bad input: TTL above the maximum is 422; another workspace’s number is 404', async () => {
    assertProblem(await post(h, '/voice/token', { identity: 'x', ttl_seconds: 86_401 }), 422, 'validation_failed')
    assertProblem(await post(h, '/voice/token', { identity: 'has spaces' }), 422, 'validation_failed')
    const theirs = await newNumber(h, {}, h.b.live)
    assertProblem(await post(h, '/voice/token', { identity: 'x', outgoing: { number_id: theirs.id } }), 422, 'invalid_reference')
  })
})
