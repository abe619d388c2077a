// Snowball stemmers and stop-word lists per language (ISO 639-1 code), from Orama's maintained packages.
// Only the languages whose stemmer follows a Snowball algorithm are listed: for any other language a base
// is analysed without stemming or stop words (it still works, with exact word forms only).
import { stemmer as arabic } from '@orama/stemmers/arabic'
import { stemmer as armenian } from '@orama/stemmers/armenian'
import { stemmer as danish } from '@orama/stemmers/danish'
import { stemmer as dutch } from '@orama/stemmers/dutch'
import { stemmer as english } from '@orama/stemmers/english'
import { stemmer as finnish } from '@orama/stemmers/finnish'
import { stemmer as french } from '@orama/stemmers/french'
import { stemmer as german } from '@orama/stemmers/german'
import { stemmer as greek } from '@orama/stemmers/greek'
import { stemmer as hungarian } from '@orama/stemmers/hungarian'
import { stemmer as indonesian } from '@orama/stemmers/indonesian'
import { stemmer as irish } from '@orama/stemmers/irish'
import { stemmer as italian } from '@orama/stemmers/italian'
import { stemmer as lithuanian } from '@orama/stemmers/lithuanian'
import { stemmer as nepali } from '@orama/stemmers/nepali'
import { stemmer as norwegian } from '@orama/stemmers/norwegian'
import { stemmer as portuguese } from '@orama/stemmers/portuguese'
import { stemmer as romanian } from '@orama/stemmers/romanian'
import { stemmer as russian } from '@orama/stemmers/russian'
import { stemmer as serbian } from '@orama/stemmers/serbian'
import { stemmer as spanish } from '@orama/stemmers/spanish'
import { stemmer as swedish } from '@orama/stemmers/swedish'
import { stemmer as tamil } from '@orama/stemmers/tamil'
import { stemmer as turkish } from '@orama/stemmers/turkish'
import { stopwords as arabicStop } from '@orama/stopwords/arabic'
import { stopwords as armenianStop } from '@orama/stopwords/armenian'
import { stopwords as danishStop } from '@orama/stopwords/danish'
import { stopwords as dutchStop } from '@orama/stopwords/dutch'
import { stopwords as englishStop } from '@orama/stopwords/english'
import { stopwords as finnishStop } from '@orama/stopwords/finnish'
import { stopwords as frenchStop } from '@orama/stopwords/french'
import { stopwords as germanStop } from '@orama/stopwords/german'
import { stopwords as greekStop } from '@orama/stopwords/greek'
import { stopwords as hungarianStop } from '@orama/stopwords/hungarian'
import { stopwords as indonesianStop } from '@orama/stopwords/indonesian'
import { stopwords as irishStop } from '@orama/stopwords/irish'
import { stopwords as italianStop } from '@orama/stopwords/italian'
import { stopwords as lithuanianStop } from '@orama/stopwords/lithuanian'
import { stopwords as nepaliStop } from '@orama/stopwords/nepali'
import { stopwords as norwegianStop } from '@orama/stopwords/norwegian'
import { stopwords as portugueseStop } from '@orama/stopwords/portuguese'
import { stopwords as romanianStop } from '@orama/stopwords/romanian'
import { stopwords as russianStop } from '@orama/stopwords/russian'
import { stopwords as serbianStop } from '@orama/stopwords/serbian'
import { stopwords as spanishStop } from '@orama/stopwords/spanish'
import { stopwords as swedishStop } from '@orama/stopwords/swedish'
import { stopwords as tamilStop } from '@orama/stopwords/tamil'
import { stopwords as turkishStop } from '@orama/stopwords/turkish'

export interface LanguageAnalysis {
  name: string
  stem(word: string): string
  stopWords: ReadonlySet<string>
}

const lang = (name: string, stem: (w: string) => string, stop: string[]): LanguageAnalysis => ({ name, stem, stopWords: new Set(stop.map((w) => w.toLowerCase())) })

/** ISO 639-1 code → analysis. The keys are the languages with stemming (SUPPORTED_LANGUAGES). */
export const LANGUAGE_ANALYSERS: Readonly<Record<string, LanguageAnalysis>> = {
  ar: lang('Arabic', arabic, arabicStop),
  hy: lang('Armenian', armenian, armenianStop),
  da: lang('Danish', danish, danishStop),
  nl: lang('Dutch', dutch, dutchStop),
  en: lang('English', english, englishStop),
  fi: lang('Finnish', finnish, finnishStop),
  fr: lang('French', french, frenchStop),
  de: lang('German', german, germanStop),
  el: lang('Greek', greek, greekStop),
  hu: lang('Hungarian', hungarian, hungarianStop),
  id: lang('Indonesian', indonesian, indonesianStop),
  ga: lang('Irish', irish, irishStop),
  it: lang('Italian', italian, italianStop),
  lt: lang('Lithuanian', lithuanian, lithuanianStop),
  ne: lang('Nepali', nepali, nepaliStop),
  no: lang('Norwegian', norwegian, norwegianStop),
  pt: lang('Portuguese', portuguese, portugueseStop),
  ro: lang('Romanian', romanian, romanianStop),
  ru: lang('Russian', russian, russianStop),
  sr: lang('Serbian', serbian, serbianStop),
  es: lang('Spanish', spanish, spanishStop),
  sv: lang('Swedish', swedish, swedishStop),
  ta: lang('Tamil', tamil, tamilStop),
  tr: lang('Turkish', turkish, turkishStop),
}

/** Languages a knowledge base may declare with stemming; createKnowledgeBase validates against this list. */
export const SUPPORTED_LANGUAGES: readonly string[] = Object.keys(LANGUAGE_ANALYSERS).sort()
