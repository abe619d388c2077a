import type { FastifyRequest } from 'fastify'
import { PASSWORD_MAX, PASSWORD_MIN } from './passwords.js'

// The sign-in pages in the dashboard's languages. The dashboard keeps the reader's choice in a cookie
// (`svc_locale`, set with the language in Settings); without one the browser's Accept-Language decides.

export type PageLocale = 'en' | 'de'
const LOCALES: readonly PageLocale[] = ['en', 'de']

export function pageLocale(request: FastifyRequest): PageLocale {
  const cookie = /(?:^|;\s*)svc_locale=(en|de)(?:;|$)/.exec(request.headers.cookie ?? '')
  if (cookie) return cookie[1] as PageLocale
  // Accept-Language: the highest-weighted language we have (RFC 9110 §12.5.4), English when none.
  let best: { l: PageLocale; q: number } | null = null
  for (const part of (request.headers['accept-language'] ?? '').split(',').slice(0, 20)) {
    const [tag, ...params] = part.trim().toLowerCase().split(';')
    const l = tag.split('-')[0] as PageLocale
    if (!LOCALES.includes(l)) continue
    const q = Number(/q=([\d.]+)/.exec(params.join(';'))?.[1] ?? 1)
    if (Number.isFinite(q) && q > 0 && (!best || q > best.q)) best = { l, q }
  }
  return best?.l ?? 'en'
}

const en = {
  signIn: 'Sign in',
  email: 'Email',
  password: 'Password',
  noPassword: 'No password yet? Use the invitation link you were sent, or ask an operator',
  signedIn: 'Signed in',
  signedInAs: 'You are signed in as',
  yourWorkspaces: 'Your workspaces:',
  noWorkspace: 'You are not an active member of any workspace.',
  signOut: 'Sign out',
  signOutQuestion: (email: string) => `Sign out ${email} from this browser?`,
  mode: (mode: string): string => (mode === 'test' ? 'sandbox' : 'live'),
  role: (role: string) => role,
  formExpiredTitle: 'Form expired',
  formExpired: 'This form has expired',
  formExpiredText: 'The form was not sent from this site or is too old. Reload the page and try again.',
  invitationNotFound: 'Invitation not found',
  invitationNotFoundText: 'This invitation link is unknown or was already used.',
  join: (workspace: string) => `Join ${workspace}`,
  invited: (role: string) => `is invited as ${role} to`,
  invitedMode: (mode: string) => `(${mode}).`,
  choosePassword: `Choose a password (at least ${PASSWORD_MIN} characters)`,
  repeat: 'Repeat it',
  setAndJoin: 'Set password and join',
  alreadyPassword: 'You already have a password:',
  signInToAccept: 'sign in',
  toAccept: 'to accept.',
  operator: 'This email already belongs to another workspace but has no password. Ask an operator to set one',
  operatorThen: 'then sign in and open this link again.',
  otherMember: 'You are signed in as someone else. Sign out, then open this link again.',
  throttled: (minutes: number) => `Too many failed attempts. Try again in ${minutes} minute(s).`,
  wrong: 'The email or the password is wrong.',
  differ: 'The two passwords differ.',
  tooShort: `Use at least ${PASSWORD_MIN} characters.`,
  tooLong: `Use at most ${PASSWORD_MAX} characters.`,
  isEmail: 'The password must not be your email address.',
}

const ROLES_DE: Record<string, string> = { member: 'Mitglied', admin: 'Administrator', owner: 'Eigentümer' }

const de: typeof en = {
  signIn: 'Anmelden',
  email: 'E-Mail',
  password: 'Passwort',
  noPassword: 'Noch kein Passwort? Nutzen Sie den Einladungslink, den Sie erhalten haben, oder fragen Sie den Betrieb',
  signedIn: 'Angemeldet',
  signedInAs: 'Sie sind angemeldet als',
  yourWorkspaces: 'Ihre Arbeitsbereiche:',
  noWorkspace: 'Sie sind in keinem Arbeitsbereich aktives Mitglied.',
  signOut: 'Abmelden',
  signOutQuestion: (email: string) => `${email} in diesem Browser abmelden?`,
  mode: (mode: string) => (mode === 'test' ? 'Sandbox' : 'live'),
  role: (role: string) => ROLES_DE[role] ?? role,
  formExpiredTitle: 'Formular abgelaufen',
  formExpired: 'Dieses Formular ist abgelaufen',
  formExpiredText: 'Das Formular kam nicht von dieser Seite oder ist zu alt. Laden Sie die Seite neu und versuchen Sie es noch einmal.',
  invitationNotFound: 'Einladung nicht gefunden',
  invitationNotFoundText: 'Dieser Einladungslink ist unbekannt oder wurde schon benutzt.',
  join: (workspace: string) => `${workspace} beitreten`,
  invited: (role: string) => `ist als ${role} eingeladen in`,
  invitedMode: (mode: string) => `(${mode}).`,
  choosePassword: `Wählen Sie ein Passwort (mindestens ${PASSWORD_MIN} Zeichen)`,
  repeat: 'Wiederholen',
  setAndJoin: 'Passwort setzen und beitreten',
  alreadyPassword: 'Sie haben schon ein Passwort:',
  signInToAccept: 'melden Sie sich an',
  toAccept: ', um anzunehmen.',
  operator: 'Diese E-Mail gehört schon zu einem anderen Arbeitsbereich, hat aber kein Passwort. Bitten Sie den Betrieb, eines zu setzen',
  operatorThen: 'dann melden Sie sich an und öffnen diesen Link noch einmal.',
  otherMember: 'Sie sind als jemand anderes angemeldet. Melden Sie sich ab und öffnen Sie diesen Link dann noch einmal.',
  throttled: (minutes: number) => `Zu viele fehlgeschlagene Versuche. Versuchen Sie es in ${minutes} ${minutes === 1 ? 'Minute' : 'Minuten'} noch einmal.`,
  wrong: 'E-Mail oder Passwort ist falsch.',
  differ: 'Die beiden Passwörter unterscheiden sich.',
  tooShort: `Verwenden Sie mindestens ${PASSWORD_MIN} Zeichen.`,
  tooLong: `Verwenden Sie höchstens ${PASSWORD_MAX} Zeichen.`,
  isEmail: 'Das Passwort darf nicht Ihre E-Mail-Adresse sein.',
}

export type SignInText = typeof en
export const SIGN_IN_TEXT: Record<PageLocale, SignInText> = { en, de }
