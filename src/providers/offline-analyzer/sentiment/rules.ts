/**
 * The function words each language's sentiment rules read: negators, intensifiers and downtoners, contrast and
 * concession markers, elided prefixes. Words are lower case and keep their accents; phrases are space-separated.
 */

export interface LanguageRules {
  /** Words that negate the sentiment of the next few words (or, with nothing there, of the word before). */
  negators: readonly string[]
  /** Words that negate only after a negation marker in the same clause (French "ne ... plus"). */
  markedNegators?: readonly string[]
  /** Markers that make markedNegators negate ("ne", "n'"). */
  negationMarkers?: readonly string[]
  /** Phrases that start with a negator but do not negate ("not only", "no doubt"). */
  notNegations?: readonly string[]
  /**
   * Negators that, as the subject opening a clause, negate its whole predicate however far it stands ("Nothing about this
   * phone works as advertised"), where other negators reach a few words.
   */
  subjectNegators?: readonly string[]
  /** Amounts that a negator reads through, not counted in its reach ("not an ounce of honesty"). */
  partitives?: readonly string[]
  /** Negators that, finding nothing to turn, are no negative cue by themselves ("hardly", "without"). */
  weakNegators?: readonly string[]
  /** Negators that a clause ending in one of `hyperboleEnds` turns into praise of degree ("can't recommend it enough"). */
  hyperboleNegators?: readonly string[]
  hyperboleEnds?: readonly string[]
  /**
   * Negators of time that before a word of degree and a rated word praise or blame by comparison ("never eaten so well"
   * is the best meal yet, "never been so disappointed" the worst): the word is not negated. A negator before one in
   * its clause ("non ho mai") is part of its negation; a standard of comparison after the word ("never as good as the
   * first") keeps the negation.
   */
  superlativeNegators?: readonly string[]
  superlativeDegrees?: readonly string[]
  comparisonStandards?: readonly string[]
  /** Coordinating conjunctions ("and", "or"): a negator reaching back stops at one, the clause before is another's. */
  coordinators?: readonly string[]
  /**
   * Set phrases with their own valence, read whole ("can't beat", "to die for"); they win over their words. `|` gives
   * other words in a place and a final `?` makes a word optional ("superou|superaram todas? as? expectativas").
   */
  idioms?: Readonly<Record<string, number>>
  /** Whether a negator with no sentiment word after it in its clause negates the one before (German "mag es nicht"). */
  negatesBackward: boolean
  /** Words and phrases that scale the sentiment of the word they precede (> 1 intensify, < 1 soften). */
  intensifiers: Readonly<Record<string, number>>
  /** Words and phrases after which the rest of the sentence weighs more, the part before less ("but"). */
  contrast: readonly string[]
  /** Words and phrases whose clause weighs less ("although"). */
  concession: readonly string[]
  /** Elided prefixes split off a word ("n'", "l'", "dell'"), lower case with the apostrophe. */
  elisions?: readonly string[]
}

const BOOST = 1.3
const STRONG = 1.5
const SOFT = 0.6
const SOMEWHAT = 0.8

export const RULES: Readonly<Record<string, LanguageRules>> = {
  en: {
    negators: ['not', 'no', 'never', 'cannot', 'nothing', 'nobody', 'none', 'nowhere', 'neither', 'nor', 'without', 'hardly',
      'barely', 'scarcely', 'rarely', 'seldom', 'lack', 'lacks', 'lacked', 'lacking', 'aint', 'dont', 'doesnt', 'didnt', 'isnt',
      'wasnt', 'werent', 'arent', 'cant', 'couldnt', 'wont', 'wouldnt', 'shouldnt', 'havent', 'hasnt', 'hadnt', 'nope', 'far from',
      'least', 'can not', 'could not',
      // a counterfactual past turns what it names: "could have been better" is a complaint, "could have been a disaster" relief
      'could have been', "could've been", 'should have been', "should've been"],
    weakNegators: ['could have been', "could've been", 'should have been', "should've been", 'nothing', 'nobody', 'none', 'nowhere', 'neither', 'nor', 'without', 'hardly', 'barely', 'scarcely', 'rarely',
      'seldom', 'lack', 'lacks', 'lacked', 'lacking', 'least'],
    notNegations: ['not only', 'no doubt', 'without a doubt', 'nothing but', 'not just', 'at least', "didn't realize",
      'did not realize', "didn't expect", 'did not expect', 'never knew', 'not to mention', 'no matter', 'nothing short of',
      'none other'],
    subjectNegators: ['nothing', 'nobody', 'none'],
    partitives: ['an ounce of', 'one ounce of', 'a shred of', 'an iota of', 'a trace of', 'a hint of', 'a speck of', 'a grain of',
      'a scrap of', 'a modicum of', 'a drop of'],
    hyperboleNegators: ["can't", 'cannot', 'cant', 'can not', "couldn't", 'couldnt', 'could not'],
    hyperboleEnds: ['enough'],
    superlativeNegators: ['never'],
    superlativeDegrees: ['so', 'as', 'such'],
    comparisonStandards: ['as', 'than'],
    coordinators: ['and', 'or'],
    idioms: {
      'could have been better': -1.8,
      "could've been better": -1.8,
      'should have been better': -1.8,
      "should've been better": -1.8,
      'could be better': -1.4,
      "don't miss": 2,
      'do not miss': 2,
      'dont miss': 2,
      "can't beat": 2.4,
      'cannot beat': 2.4,
      "can't go wrong": 2.4,
      'cannot go wrong': 2.4,
      "won't be disappointed": 2.4,
      'will not be disappointed': 2.4,
      "couldn't be happier": 3,
      'could not be happier': 3,
      "couldn't be more": 2.4,
      'could not be more': 2.4,
      "couldn't ask for more": 2.6,
      "couldn't have been": 1.6,
      "can't wait": 1.8,
      'nothing to complain about': 2,
      'no complaints': 2,
      'never disappoints': 2.6,
      'never been better': 2.6,
      'nothing could be better': 2.6,
      'to die for': 2.8,
      'at best': -1.8,
      'a joke': -2,
      'leaves a lot to be desired': -2.6,
      'left a lot to be desired': -2.6,
      'look elsewhere': -2.2,
      'go elsewhere': -2.2,
      'money back': -2,
      'save your money': -2.6,
      'keep looking': -1.6,
      "don't bother": -2.2,
      'do not bother': -2.2,
      'dont bother': -2.2,
      "don't waste": -2.4,
      'do not waste': -2.4,
      'dont waste': -2.4,
      "don't buy": -2.6,
      'do not buy': -2.6,
      'dont buy': -2.6,
      'not worth': -2.2,
      "wasn't worth": -2.2,
      "isn't worth": -2.2
    },
    negatesBackward: false,
    intensifiers: {
      very: BOOST,
      really: BOOST,
      so: BOOST,
      too: BOOST,
      truly: BOOST,
      super: BOOST,
      highly: BOOST,
      especially: BOOST,
      particularly: BOOST,
      totally: BOOST,
      completely: BOOST,
      absolutely: STRONG,
      extremely: STRONG,
      incredibly: STRONG,
      utterly: STRONG,
      thoroughly: BOOST,
      exceptionally: STRONG,
      remarkably: BOOST,
      seriously: BOOST,
      terribly: BOOST,
      awfully: BOOST,
      insanely: STRONG,
      amazingly: BOOST,
      deeply: BOOST,
      most: BOOST,
      definitely: BOOST,
      'by far': STRONG,
      quite: 1.1,
      pretty: 1,
      fairly: SOMEWHAT,
      rather: SOMEWHAT,
      somewhat: SOFT,
      slightly: SOFT,
      'a bit': SOFT,
      'a little': SOFT,
      'kind of': SOFT,
      'sort of': SOFT,
      kinda: SOFT,
      sorta: SOFT,
      mildly: SOFT,
      marginally: SOFT,
      almost: SOMEWHAT
    },
    contrast: ['but', 'however', 'nevertheless', 'nonetheless', 'except', 'yet', 'unfortunately'],
    concession: ['although', 'though', 'even though', 'despite', 'in spite of', 'while', 'whilst', 'even if']
  },
  fr: {
    negators: ['pas', 'jamais', 'rien', 'aucun', 'aucune', 'ni', 'sans', 'guère', 'nullement', 'point'],
    markedNegators: ['plus', 'personne'],
    negationMarkers: ['ne', "n'"],
    notNegations: ['pas seulement', 'sans doute', 'sans aucun doute', 'pas que', 'sans problème', 'sans souci'],
    idioms: {
      'rien à redire': 2,
      'rien à dire': 1.5,
      'pas terrible': -1.6,
      'pas très|bien|si|trop? fameux': -1.6,
      "j'ai déjà? connu|vu mieux": -1.6,
      'on a déjà? connu|vu mieux': -1.6,
      // "à tomber (par terre)": so good one could fall over; after a copula, not "la pluie commence à tomber"
      'est|sont|était|étaient|sera|seront à tomber': 2.4,
      'à tomber par terre': 2.4
    },
    superlativeNegators: ['jamais'],
    superlativeDegrees: ['aussi', 'si', 'autant', 'tellement', 'tel', 'telle', 'tels', 'telles'],
    comparisonStandards: ['que', "qu'"],
    coordinators: ['et', 'ou'],
    negatesBackward: true,
    intensifiers: {
      très: BOOST,
      vraiment: BOOST,
      trop: BOOST,
      tellement: BOOST,
      si: BOOST,
      super: BOOST,
      hyper: BOOST,
      vachement: BOOST,
      extrêmement: STRONG,
      absolument: STRONG,
      totalement: BOOST,
      complètement: BOOST,
      particulièrement: BOOST,
      incroyablement: STRONG,
      franchement: BOOST,
      parfaitement: BOOST,
      'tout à fait': BOOST,
      plutôt: SOMEWHAT,
      assez: SOMEWHAT,
      'un peu': SOFT,
      légèrement: SOFT,
      moyennement: SOFT,
      presque: SOMEWHAT
    },
    contrast: ['mais', 'cependant', 'pourtant', 'toutefois', 'néanmoins', 'par contre', 'en revanche', 'malheureusement'],
    concession: ['bien que', 'même si', 'malgré', 'quoique', 'alors que', 'tandis que'],
    elisions: ["n'", "l'", "d'", "j'", "c'", "qu'", "s'", "m'", "t'", "jusqu'", "lorsqu'", "puisqu'", "quoiqu'"]
  },
  de: {
    negators: ['nicht', 'kein', 'keine', 'keinen', 'keinem', 'keiner', 'keines', 'nie', 'niemals', 'nichts', 'niemand', 'ohne',
      'weder', 'noch nie', 'kaum', 'keineswegs', 'keinesfalls', 'gar nicht', 'überhaupt nicht'],
    notNegations: ['nicht nur', 'ohne zweifel'],
    idioms: { 'nicht schlecht': 1.5, 'nichts auszusetzen': 2, 'kaum erwarten': 1.8, 'kaum abwarten': 1.8, 'finger weg': -2.6 },
    superlativeNegators: ['nie', 'niemals', 'noch nie'],
    superlativeDegrees: ['so', 'derart', 'dermaßen'],
    comparisonStandards: ['wie', 'als'],
    coordinators: ['und', 'oder'],
    negatesBackward: true,
    intensifiers: {
      sehr: BOOST,
      wirklich: BOOST,
      echt: BOOST,
      total: BOOST,
      absolut: STRONG,
      extrem: STRONG,
      äußerst: STRONG,
      super: BOOST,
      so: BOOST,
      zu: BOOST,
      besonders: BOOST,
      richtig: BOOST,
      voll: BOOST,
      unglaublich: STRONG,
      höchst: STRONG,
      wahnsinnig: STRONG,
      furchtbar: BOOST,
      völlig: BOOST,
      komplett: BOOST,
      ganz: 1.1,
      ziemlich: SOMEWHAT,
      recht: SOMEWHAT,
      eher: SOMEWHAT,
      etwas: SOFT,
      'ein bisschen': SOFT,
      'ein wenig': SOFT,
      leicht: SOFT,
      fast: SOMEWHAT
    },
    contrast: ['aber', 'jedoch', 'allerdings', 'trotzdem', 'dennoch', 'sondern', 'leider'],
    concession: ['obwohl', 'obgleich', 'obschon', 'trotz', 'wenngleich', 'auch wenn', 'während']
  },
  es: {
    negators: ['no', 'nunca', 'jamás', 'ni', 'sin', 'tampoco', 'nada', 'nadie', 'ningún', 'ninguno', 'ninguna', 'poco', 'poca'],
    notNegations: ['no solo', 'no sólo', 'sin duda', 'sin problemas', 'sin ningún problema'],
    idioms: {
      'no está mal': 1.5,
      'nada mal': 1.5,
      'no veo la hora': 1.8,
      'no vemos la hora': 1.8,
      'es|fue|era|será|sería una auténtica|verdadera? pasada': 2.4,
      'qué|que|menuda pasada': 2.4
    },
    superlativeNegators: ['nunca', 'jamás'],
    superlativeDegrees: ['tan', 'tanto', 'tanta'],
    comparisonStandards: ['como'],
    coordinators: ['y', 'e', 'o', 'u'],
    negatesBackward: true,
    intensifiers: {
      muy: BOOST,
      realmente: BOOST,
      súper: BOOST,
      super: BOOST,
      totalmente: BOOST,
      completamente: BOOST,
      absolutamente: STRONG,
      extremadamente: STRONG,
      demasiado: BOOST,
      tan: BOOST,
      increíblemente: STRONG,
      sumamente: STRONG,
      verdaderamente: BOOST,
      especialmente: BOOST,
      bastante: 1.1,
      re: BOOST,
      'un poco': SOFT,
      algo: SOFT,
      ligeramente: SOFT,
      casi: SOMEWHAT
    },
    contrast: ['pero', 'sin embargo', 'no obstante', 'sino', 'aun así', 'lamentablemente', 'desafortunadamente', 'desgraciadamente'],
    concession: ['aunque', 'a pesar de', 'pese a', 'si bien', 'mientras que']
  },
  it: {
    negators: ['non', 'mai', 'niente', 'nulla', 'nessuno', 'nessuna', 'nessun', 'senza', 'né', 'poco', 'poca', 'affatto'],
    notNegations: ['non solo', 'senza dubbio', 'senza problemi'],
    idioms: { 'niente male': 1.5, 'non male': 1.5, 'non è male': 1.5, "non vedo l'ora": 1.8, "non vediamo l'ora": 1.8, 'da evitare': -2.4 },
    superlativeNegators: ['mai'],
    superlativeDegrees: ['così', 'tanto', 'tanta', 'talmente', 'tale'],
    comparisonStandards: ['come', 'quanto'],
    coordinators: ['e', 'ed', 'o', 'oppure'],
    negatesBackward: true,
    intensifiers: {
      molto: BOOST,
      davvero: BOOST,
      veramente: BOOST,
      proprio: BOOST,
      troppo: BOOST,
      così: BOOST,
      estremamente: STRONG,
      assolutamente: STRONG,
      totalmente: BOOST,
      completamente: BOOST,
      super: BOOST,
      parecchio: BOOST,
      incredibilmente: STRONG,
      particolarmente: BOOST,
      tanto: BOOST,
      abbastanza: SOMEWHAT,
      piuttosto: SOMEWHAT,
      'un po': SOFT,
      "un po'": SOFT,
      leggermente: SOFT,
      quasi: SOMEWHAT
    },
    contrast: ['ma', 'però', 'tuttavia', 'comunque', 'eppure', 'purtroppo', 'invece'],
    concession: ['anche se', 'sebbene', 'nonostante', 'benché', 'malgrado', 'mentre'],
    elisions: ["l'", "un'", "d'", "dell'", "all'", "nell'", "sull'", "dall'", "quest'", "quell'", "c'", "com'", "dov'", "v'", "m'", "t'", "s'"]
  },
  pt: {
    negators: ['não', 'nunca', 'jamais', 'nem', 'sem', 'nenhum', 'nenhuma', 'nada', 'ninguém', 'tampouco', 'pouco', 'pouca'],
    notNegations: ['não só', 'não apenas', 'sem dúvida', 'sem problemas'],
    idioms: {
      'nada mal': 1.5,
      'não é mau': 1.5,
      'não é ruim': 1.5,
      'mal posso esperar': 1.8,
      'mal podemos esperar': 1.8,
      'não vejo a hora': 1.8,
      'não vemos a hora': 1.8,
      'superou|superaram|supera|superam|ultrapassou|ultrapassaram todas? as? minhas|nossas? expectativas': 2.4,
      'não|nao superou|superaram|supera|superam todas? as? minhas|nossas? expectativas': -1.8
    },
    superlativeNegators: ['nunca', 'jamais'],
    superlativeDegrees: ['tão', 'tanto', 'tanta'],
    comparisonStandards: ['como', 'quanto'],
    coordinators: ['e', 'ou'],
    negatesBackward: true,
    intensifiers: {
      muito: BOOST,
      muita: BOOST,
      muitos: BOOST,
      realmente: BOOST,
      super: BOOST,
      totalmente: BOOST,
      completamente: BOOST,
      extremamente: STRONG,
      absolutamente: STRONG,
      demais: BOOST,
      tão: BOOST,
      bem: BOOST,
      incrivelmente: STRONG,
      bastante: 1.1,
      especialmente: BOOST,
      'um pouco': SOFT,
      'um pouquinho': SOFT,
      meio: SOMEWHAT,
      levemente: SOFT,
      ligeiramente: SOFT,
      quase: SOMEWHAT
    },
    contrast: ['mas', 'porém', 'contudo', 'entretanto', 'todavia', 'no entanto', 'infelizmente'],
    concession: ['embora', 'apesar de', 'apesar', 'ainda que', 'mesmo que', 'enquanto']
  },
  nl: {
    negators: ['niet', 'geen', 'nooit', 'niets', 'niks', 'niemand', 'nergens', 'zonder', 'noch', 'nauwelijks', 'amper'],
    notNegations: ['niet alleen', 'zonder twijfel'],
    idioms: { 'niet slecht': 1.5, 'geen klachten': 1.8, 'kan niet wachten': 1.8, 'kunnen niet wachten': 1.8 },
    superlativeNegators: ['nooit'],
    superlativeDegrees: ['zo', 'zó', "zo'n", 'zulk', 'zulke'],
    comparisonStandards: ['als'],
    coordinators: ['en', 'of'],
    negatesBackward: true,
    intensifiers: {
      erg: BOOST,
      heel: BOOST,
      zeer: BOOST,
      echt: BOOST,
      super: BOOST,
      ontzettend: STRONG,
      enorm: STRONG,
      vreselijk: BOOST,
      verschrikkelijk: BOOST,
      te: BOOST,
      zo: BOOST,
      bijzonder: BOOST,
      uiterst: STRONG,
      absoluut: STRONG,
      totaal: BOOST,
      helemaal: BOOST,
      hartstikke: STRONG,
      best: SOMEWHAT,
      nogal: SOMEWHAT,
      vrij: SOMEWHAT,
      redelijk: SOMEWHAT,
      'een beetje': SOFT,
      'een tikje': SOFT,
      enigszins: SOFT,
      bijna: SOMEWHAT
    },
    contrast: ['maar', 'echter', 'toch', 'desondanks', 'helaas', 'daarentegen'],
    concession: ['hoewel', 'ondanks', 'alhoewel', 'ofschoon', 'terwijl']
  }
}
