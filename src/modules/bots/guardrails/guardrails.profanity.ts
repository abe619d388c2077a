import { RegExpMatcher, TextCensor, asteriskCensorStrategy, englishDataset, englishRecommendedTransformers, keepStartCensorStrategy } from 'obscenity'

// Profanity is judged by obscenity's English data set: whole-word patterns with whitelists for the innocent
// words that contain a swear word ("Scunthorpe", "assess", "cocktail"), and transformers that see through
// leetspeak, look-alike characters and repeated letters ("sh1t", "fuuuck"). English only: a reply in another
// language is not filtered for profanity (documented limit).

// Everyday words the English data set still catches (found by testing); a match inside one is ignored.
const INNOCENT = ['shiitake', 'shitake', 'cockpit', 'pussycat', 'pussy willow', 'pussy-willow', 'moby dick', 'moby-dick', 'cum laude', 'shih tzu', 'shitzu', 'blue tit', 'great tit', 'penistone']

const dataset = englishDataset.build()
const matcher = new RegExpMatcher({ ...dataset, whitelistedTerms: [...(dataset.whitelistedTerms ?? []), ...INNOCENT], ...englishRecommendedTransformers })
// Keep the first letter ("f***"): the reader sees a word was masked, not which one exactly.
const censor = new TextCensor().setStrategy(keepStartCensorStrategy(asteriskCensorStrategy()))

export const hasProfanity = (text: string): boolean => matcher.hasMatch(text)

export function maskProfanity(text: string): { text: string; count: number } {
  const matches = matcher.getAllMatches(text, true)
  if (matches.length === 0) return { text, count: 0 }
  // Several patterns can match the same word: count words, not matches.
  let count = 0
  let end = -1
  for (const m of [...matches].sort((a, b) => a.startIndex - b.startIndex)) {
    if (m.startIndex > end) count++
    end = Math.max(end, m.endIndex)
  }
  return { text: censor.applyTo(text, matches), count }
}
