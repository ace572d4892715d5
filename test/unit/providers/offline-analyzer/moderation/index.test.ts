/** Offline moderation on real sentences: categories, profanity and its tricks, known false positives, threats and insults in every language, topics, hostile input. */
import { beforeAll, describe, expect, it } from 'vitest'
import { MODERATION_LANGUAGES, loadModeration, moderate } from '../../../../../src/providers/offline-analyzer/moderation/index.js'
import { MODERATION_CATEGORIES, type ModerationCategory } from '../../../../../src/core/analysis/results.js'

beforeAll(async () => {
  await loadModeration()
})

/** The confidence of one category. */
function score (text: string, language: string, category: ModerationCategory): number {
  const found = moderate(text, language).find(s => s.name === category)
  if (!found) throw new Error(`no ${category} in the answer`)
  return found.confidence
}

const HARM: ModerationCategory[] = ['Toxic', 'Derogatory', 'Violent', 'Sexual', 'Insult', 'Profanity']
const TOPICS: ModerationCategory[] = ['Death Harm & Tragedy', 'Firearms & Weapons', 'Public Safety', 'Health', 'Religion & Belief', 'Illicit Drugs', 'War & Conflict', 'Politics', 'Finance', 'Legal']

describe('moderation answer', () => {
  it('covers the seven languages', () => {
    expect([...MODERATION_LANGUAGES].sort()).toEqual(['de', 'en', 'es', 'fr', 'it', 'nl', 'pt'])
  })

  it('gives all 16 categories in order, each in [0, 1]', () => {
    for (const text of ['', 'Hello there.', 'fuck you, I will kill you, you worthless idiot', 'The church sold its rifles to pay the bank.']) {
      const answer = moderate(text, 'en')
      expect(answer.map(s => s.name)).toEqual([...MODERATION_CATEGORIES])
      for (const { confidence } of answer) {
        expect(confidence).toBeGreaterThanOrEqual(0)
        expect(confidence).toBeLessThanOrEqual(1)
      }
    }
  })

  it('gives 0 everywhere without evidence', () => {
    expect(moderate('', 'en').every(s => s.confidence === 0)).toBe(true)
    expect(moderate('The cat sat on the mat.', 'en').every(s => s.confidence === 0)).toBe(true)
  })

  it('reads a regional tag by its base language and other languages as English', () => {
    expect(score('vou te matar', 'pt-BR', 'Violent')).toBeGreaterThan(0.8)
    expect(score('I will kill you', 'sv', 'Violent')).toBeGreaterThan(0.8)
  })
})

describe('clean text', () => {
  const clean: Record<string, string[]> = {
    en: ['The weather is lovely today and we went for a walk in the park.', 'Can you send me the report by Friday?', 'I am going to visit you tomorrow.', 'Thank you so much for your help!'],
    fr: ['Il fait beau aujourd\'hui, nous sommes allés au parc.', 'Je vais te voir demain.', 'Pouvez-vous m\'envoyer le rapport avant vendredi ?', 'Je voudrais mettre le panier dans la poche.'],
    de: ['Das Wetter ist heute schön.', 'Ich bringe dich nach Hause.', 'Das Buch ist sehr dick.', 'Der Kanal ist lang.'],
    es: ['Hace buen tiempo hoy.', 'Te voy a llamar mañana.', 'El vino negro es muy bueno.', 'Quiero un poco de leche con la cuchara.'],
    it: ['Oggi fa bel tempo.', 'Ti chiamo domani.', 'Il fu re d\'Italia.', 'Mangio i fagioli con le rape.'],
    pt: ['Hoje o tempo está bom.', 'Vou te ligar amanhã.', 'O pica-pau está na árvore.', 'Comprei um frango para o jantar.'],
    nl: ['Het weer is mooi vandaag.', 'Ik maak je ontbijt klaar.', 'Het kanaal is lang.', 'Mijn abonnement loopt af.']
  }
  for (const [language, sentences] of Object.entries(clean)) {
    it(`stays low in ${language}`, () => {
      for (const text of sentences) {
        for (const { name, confidence } of moderate(text, language)) {
          expect(confidence, `${name} for "${text}"`).toBeLessThan(0.2)
        }
      }
    })
  }
})

describe('English profanity', () => {
  it('is high for swear words, with leetspeak, spacing and masks', () => {
    for (const text of ['What the fuck is this', 'f u c k this', 'f.u.c.k', 'this is sh1t', 'f**k off', 'fück', 'shiiiit', 'you a$$hole']) {
      expect(score(text, 'en', 'Profanity'), text).toBeGreaterThanOrEqual(0.6)
    }
  })

  it('rates by cuss: a surely profane word scores above a probable one', () => {
    expect(score('fuck', 'en', 'Profanity')).toBeGreaterThan(score('shit', 'en', 'Profanity'))
  })

  it('gives sexual words Sexual and slurs Derogatory', () => {
    expect(score('send me a blowjob video', 'en', 'Sexual')).toBeGreaterThan(0.6)
    expect(score('get out, you faggot', 'en', 'Derogatory')).toBeGreaterThan(0.7)
    expect(score('get out, you faggot', 'en', 'Toxic')).toBeGreaterThan(0.7)
  })

  it('keeps a mild word low', () => {
    const hell = score('What the hell', 'en', 'Profanity')
    expect(hell).toBeGreaterThan(0)
    expect(hell).toBeLessThan(0.2)
  })

  it('keeps known false positives clean', () => {
    for (const text of ['Dick Van Dyke starred in the film.', 'Alan Cumming starred in the film.', 'Mr. Cumming visited us.', 'We met Dr. Dick yesterday.', 'The pilot sat in the cockpit.', 'She moved to Scunthorpe last year.', 'We had a hell of a good time.', 'Essex is a county in England.', 'The class assignment is due on Monday.', 'A bunch of grapes.', 'Shiitake mushrooms are tasty.', 'He was born in Middlesex.', 'Fire retardant foam.']) {
      expect(score(text, 'en', 'Profanity'), text).toBeLessThan(0.2)
      expect(score(text, 'en', 'Toxic'), text).toBeLessThan(0.2)
    }
  })

  it('reads "cock" and "pussy" by their context: a head, a crowing bird, a willow, a cat', () => {
    for (const text of ['I noticed the occasional cock of the head.', 'He cocks his head to one side.', 'The cocks crowed at dawn on the farm.',
      'A cock crows on the fence.', 'Cock-a-doodle-doo!', 'What a cock-and-bull story.', 'The pussy willow is blooming early this year.',
      'Here, pussy cat.']) {
      for (const { name, confidence } of moderate(text, 'en')) expect(confidence, `${name} for "${text}"`).toBeLessThan(0.2)
    }
    expect(score('suck my cock', 'en', 'Sexual')).toBeGreaterThan(0.5)
    expect(score('a cock in her mouth', 'en', 'Sexual')).toBeGreaterThan(0.5)
    expect(score('nice pussy', 'en', 'Sexual')).toBeGreaterThan(0.5)
  })

  it('still reads the word itself in lower case (a name only when written as one)', () => {
    expect(score('stop cumming on the carpet', 'en', 'Sexual')).toBeGreaterThan(0.5)
  })

  it('does not take an intensifier as the target of an insult', () => {
    expect(score('you\'re fucking brilliant', 'en', 'Insult')).toBeLessThan(0.2)
    expect(score('you\'re a fucking idiot', 'en', 'Insult')).toBeGreaterThan(0.8)
  })
})

describe('other languages\' profanity', () => {
  const swearing: Array<[string, string]> = [
    ['fr', 'putain de merde'], ['fr', 'quel connard'], ['de', 'Scheiße, du Arschloch'], ['de', 'so ein Wichser'],
    ['es', 'mierda, qué gilipollas'], ['es', 'hijo de puta'], ['it', 'che cazzo fai'], ['it', 'stronzo'],
    ['pt', 'porra, caralho'], ['pt', 'filho da puta'], ['nl', 'kut, klootzak'], ['nl', 'godverdomme']
  ]
  for (const [language, text] of swearing) {
    it(`finds "${text}" (${language})`, () => {
      expect(score(text, language, 'Profanity')).toBeGreaterThanOrEqual(0.6)
    })
  }

  it('finds English swearing inside another language', () => {
    expect(score('c\'est fucking nul', 'fr', 'Profanity')).toBeGreaterThanOrEqual(0.6)
  })

  it('finds masked and leetspeak spellings', () => {
    expect(score('m3rde alors', 'fr', 'Profanity')).toBeGreaterThanOrEqual(0.6)
    expect(score('c*zzo', 'it', 'Profanity')).toBeGreaterThanOrEqual(0.6)
  })

  it('keeps names and places written as names inside a sentence clean: after a given name, a particle or a preposition of place, a known place', () => {
    const names: Array<[string, string]> = [
      ['it', 'Il cavallo di Troia è un malware che si nasconde nei programmi.'], ['it', 'Omero racconta la guerra di Troia nell\'Iliade.'],
      ['it', 'Ho visitato Troia in Turchia.'], ['it', 'Elena fuggì da Sparta a Troia.'],
      ['de', 'Der Physiologe Adolf Fick erfand die Kontaktlinse.'], ['de', 'Die Diffusion folgt dem Fickschen Gesetz.'],
      ['de', 'Das Konzert in Fickmühlen war toll.'], ['de', 'Er kommt aus Fickmühlen.'], ['en', 'He was born in Cumming, Georgia.']
    ]
    for (const [language, text] of names) {
      for (const name of HARM) expect(score(text, language, name), `${name} for "${text}" (${language})`).toBeLessThan(0.2)
    }
  })

  it('still flags the same words as insults and swearing: in lower case, at a sentence start, after a pronoun or article, shouted, as an insult\'s target', () => {
    const swearing: Array<[string, string]> = [
      ['de', 'Fick dich!'], ['de', 'Du Fick dich!'], ['de', 'Du Fickfehler!'], ['de', 'Du Fick Idiot!'], ['de', 'DU FICKST MICH AN, FICK DICH!'],
      ['de', 'Fick Deine Mutter!'], ['de', 'Ich sage nur: Fick Deine Mutter.'], ['de', 'Ich habe Lust zu Ficken.'],
      ['it', 'Sei una Troia!'], ['it', 'Brutta Troia!'], ['it', 'Quella Troia di tua sorella.'], ['it', 'Porca Troia, che giornata.'],
      ['it', 'Figlio di Troia!'], ['it', 'sei proprio una troia'], ['en', 'You Dick!']
    ]
    for (const [language, text] of swearing) expect(score(text, language, 'Profanity'), `"${text}" (${language})`).toBeGreaterThanOrEqual(0.5)
    expect(score('Sei una Troia!', 'it', 'Insult')).toBeGreaterThan(0.8)
    expect(score('Du Fick Idiot!', 'de', 'Insult')).toBeGreaterThan(0.8)
  })
})

describe('everyday idioms', () => {
  const idioms: Array<[string, string]> = [
    ['en', 'I\'m dying to see the new Star Wars movie.'], ['en', 'I killed it at the presentation today, the audience loved it!'],
    ['en', 'You absolutely killed it on stage tonight!'], ['en', 'That joke killed me, I laughed so hard.'], ['en', 'This burger is the bomb!'],
    ['en', 'This cake is to die for.'], ['en', 'I was scared to death.'], ['en', 'I\'m dead tired now.'], ['en', 'She was dressed to kill at the gala.'],
    ['es', 'Mi hermano es un crack jugando al fútbol.'], ['es', 'Estoy muerto de cansancio.'], ['es', 'Estás muerto de miedo.'],
    ['fr', 'C\'est de la bombe, ce nouvel album !'], ['fr', 'Je suis mort de rire.'],
    ['it', 'Sono morto di stanchezza.'], ['pt', 'Estou morta de cansaço.'], ['de', 'Was für ein Bombenwetter!']
  ]
  for (const [language, text] of idioms) {
    it(`keeps "${text}" (${language}) low everywhere`, () => {
      for (const { name, confidence } of moderate(text, language)) expect(confidence, name).toBeLessThan(0.2)
    })
  }

  it('keeps the words flagged outside the idioms', () => {
    expect(score('There is a bomb in the station.', 'en', 'Firearms & Weapons')).toBeGreaterThanOrEqual(0.5)
    expect(score('Hay una bomba en la estación.', 'es', 'Firearms & Weapons')).toBeGreaterThanOrEqual(0.5)
    expect(score('Il y a une bombe dans la gare.', 'fr', 'Firearms & Weapons')).toBeGreaterThanOrEqual(0.5)
    expect(score('The attack killed twelve people.', 'en', 'Death Harm & Tragedy')).toBeGreaterThanOrEqual(0.5)
    expect(score('He was found dead on the floor.', 'en', 'Death Harm & Tragedy')).toBeGreaterThanOrEqual(0.5)
    expect(score('Three soldiers died in the war.', 'en', 'War & Conflict')).toBeGreaterThanOrEqual(0.5)
    expect(score('Vende crack en la calle.', 'es', 'Illicit Drugs')).toBeGreaterThan(0.2)
    expect(score('Encontraron a dos hombres muertos.', 'es', 'Death Harm & Tragedy')).toBeGreaterThanOrEqual(0.5)
    expect(score('Estás muerto.', 'es', 'Violent')).toBeGreaterThanOrEqual(0.5)
    for (const [language, text] of [['en', 'I will kill you'], ['es', 'Voy a matarte'], ['en', 'I killed it and now I will kill you']] as const) {
      expect(score(text, language, 'Violent'), text).toBeGreaterThanOrEqual(0.85)
    }
  })

  it('reads an idiom\'s words literally outside its context, as much as without the idiom', () => {
    const pairs: Array<[string, string, string, ModerationCategory]> = [
      ['en', 'There is the bomb in your car, it will explode at noon.', 'There is a bomb in your car, it will explode at noon.', 'Firearms & Weapons'],
      ['en', 'I got dressed to kill him tonight.', 'I got ready to kill him tonight.', 'Violent'],
      ['en', 'I will find your dog and kill it.', 'I will find your dog and kill him.', 'Violent'],
      ['en', 'The cat caught a mouse and killed it.', 'The cat caught a mouse and killed him.', 'Death Harm & Tragedy'],
      ['en', 'You are going to die for this.', 'You are going to die.', 'Violent'],
      ['en', 'You\'re dead, right?', 'You\'re dead.', 'Death Harm & Tragedy'],
      ['en', 'You\'re dead right now.', 'You\'re dead.', 'Death Harm & Tragedy'],
      ['es', 'Esa es la bomba en tu coche.', 'Hay una bomba en tu coche.', 'Firearms & Weapons'],
      ['fr', 'Le bruit était de la bombe dans la gare.', 'Il y a une bombe dans la gare.', 'Firearms & Weapons'],
      // punctuation or a few words between an idiom and the words it excludes keep them literal
      ['en', 'I will find your dog, kill it.', 'I will find your dog, kill him.', 'Violent'],
      ['en', 'I will find your dog and I will kill it.', 'I will find your dog and I will kill him.', 'Violent'],
      ['en', 'I know where your cat lives and I will kill it.', 'I know where your cat lives and I will kill him.', 'Violent'],
      ['en', 'I found your dog and I killed it.', 'I found your dog and I killed him.', 'Death Harm & Tragedy'],
      ['en', 'You are dead right here.', 'You are dead.', 'Death Harm & Tragedy'],
      ['en', 'You\'re dead right there.', 'You\'re dead.', 'Death Harm & Tragedy'],
      ['es', 'Es la bomba, en tu coche.', 'Hay una bomba en tu coche.', 'Firearms & Weapons'],
      ['fr', 'C\'est de la bombe, dans ta voiture.', 'Il y a une bombe dans ta voiture.', 'Firearms & Weapons']
    ]
    for (const [language, text, control, category] of pairs) {
      const expected = score(control, language, category)
      expect(expected, control).toBeGreaterThan(0.2)
      expect(score(text, language, category), text).toBeGreaterThanOrEqual(expected)
    }
  })
})

describe('threats', () => {
  const threats: Array<[string, string]> = [
    ['en', 'I am going to kill you'], ['en', 'I will hurt you'], ['en', 'I\'ll find you and kill you'],
    ['fr', 'je vais te tuer'], ['fr', 'je te jure que je vais te buter'],
    ['de', 'ich bringe dich um'], ['de', 'ich werde dich umbringen'],
    ['es', 'te voy a matar'], ['es', 'voy a matarte'],
    ['it', 'ti ammazzo'], ['it', 'ti uccido'],
    ['pt', 'vou te matar'], ['pt', 'eu te mato'],
    ['nl', 'ik maak je af'], ['nl', 'ik ga je vermoorden']
  ]
  for (const [language, text] of threats) {
    it(`gives "${text}" (${language}) a high Violent and Toxic`, () => {
      expect(score(text, language, 'Violent')).toBeGreaterThanOrEqual(0.85)
      expect(score(text, language, 'Toxic')).toBeGreaterThanOrEqual(0.5)
    })
  }

  it('flags threats against a group, a place or property, with other verbs, as threats', () => {
    const threats = ['I will shoot everyone at my school tomorrow.', 'I\'m going to shoot up the school tomorrow.',
      'I\'m going to burn your house down.', 'We will burn down the mosque.', 'I\'m going to blow up the office.',
      'I\'ll beat you to death.', 'I\'m going to stomp him to death.', 'Someone should put a bullet in that judge\'s head.',
      'There is a bomb in the building and it goes off at noon.', 'The bomb in your car will explode tonight.']
    for (const text of threats) {
      expect(score(text, 'en', 'Violent'), text).toBeGreaterThanOrEqual(0.85)
      expect(score(text, 'en', 'Toxic'), text).toBeGreaterThanOrEqual(0.5)
    }
    // a place or the public as the target is a matter of public safety
    for (const text of ['I will shoot everyone at my school tomorrow.', 'I\'m going to shoot up the school tomorrow.', 'I\'m going to burn your house down.',
      'I\'m going to blow up the office.', 'There is a bomb in the building and it goes off at noon.']) {
      expect(score(text, 'en', 'Public Safety'), text).toBeGreaterThanOrEqual(0.5)
    }
  })

  it('keeps the same verbs in everyday senses and in reports below a threat', () => {
    const everyday = ['Let\'s kill two birds with one stone.', 'Let\'s shoot for Friday.', 'Screw the lid on tight.', 'You killed it tonight!',
      'I\'m going to blow up the balloons for the party.', 'I will beat you at chess.', 'I\'m going to burn the toast again.',
      'I\'m going to shoot the office party for the newsletter.', 'We will beat them to the finish line.', 'You scared me to death.',
      'A bomb went off in the market yesterday.', 'I\'m going to blow up at my boss.', 'The bullet was lodged in his head.']
    for (const text of everyday) {
      expect(score(text, 'en', 'Violent'), text).toBeLessThanOrEqual(0.3)
      expect(score(text, 'en', 'Toxic'), text).toBeLessThan(0.2)
    }
  })

  it('tells a death wish and self-harm apart from a threat', () => {
    expect(score('go die', 'en', 'Toxic')).toBeGreaterThan(0.8)
    expect(score('I want to kill myself', 'en', 'Death Harm & Tragedy')).toBeGreaterThan(0.8)
    expect(score('I want to kill myself', 'en', 'Toxic')).toBeLessThan(0.2)
  })
})

describe('insults and hate', () => {
  const insults: Array<[string, string]> = [
    ['en', 'you are worthless'], ['en', 'you\'re an idiot'], ['fr', 'tu es nul'], ['fr', 't\'es qu\'une merde'],
    ['de', 'du bist ein Idiot'], ['es', 'eres un idiota'], ['es', 'no vales nada'], ['it', 'sei inutile'],
    ['pt', 'você é um idiota'], ['nl', 'je bent een idioot']
  ]
  for (const [language, text] of insults) {
    it(`gives "${text}" (${language}) Insult and Toxic`, () => {
      expect(score(text, language, 'Insult')).toBeGreaterThanOrEqual(0.8)
      expect(score(text, language, 'Toxic')).toBeGreaterThanOrEqual(0.5)
    })
  }

  it('gives dehumanising talk about a group Derogatory', () => {
    expect(score('Immigrants are vermin', 'en', 'Derogatory')).toBeGreaterThan(0.8)
    expect(score('Jews should be gassed', 'en', 'Violent')).toBeGreaterThan(0.7)
  })
})

describe('topics', () => {
  const topics: Array<[string, string, ModerationCategory]> = [
    ['en', 'The stock market rallied as investors cheered strong earnings.', 'Finance'],
    ['en', 'He was prescribed antibiotics by his doctor.', 'Health'],
    ['en', 'He cleaned the rifle.', 'Firearms & Weapons'],
    ['en', 'We met at the church.', 'Religion & Belief'],
    ['en', 'Police seized cocaine and heroin from the dealer.', 'Illicit Drugs'],
    ['en', 'Troops crossed the border as the war escalated.', 'War & Conflict'],
    ['en', 'Voters head to the polls in the presidential election.', 'Politics'],
    ['en', 'The plaintiff filed a lawsuit in federal court.', 'Legal'],
    ['en', 'Firefighters evacuated residents as the wildfire spread.', 'Public Safety'],
    ['en', 'Three people died in the tragedy and a funeral was held.', 'Death Harm & Tragedy'],
    ['fr', 'Le médecin lui a prescrit des antibiotiques.', 'Health'],
    ['de', 'Die Börse ist gestiegen, die Aktien legen zu.', 'Finance'],
    ['es', 'La iglesia celebró una misa.', 'Religion & Belief'],
    ['it', 'La guerra è finita con il cessate il fuoco.', 'War & Conflict'],
    ['pt', 'O juiz condenou o réu no tribunal.', 'Legal'],
    ['nl', 'De verkiezingen voor het parlement zijn in maart.', 'Politics']
  ]
  for (const [language, text, category] of topics) {
    it(`gives "${text}" (${language}) ${category} above the other topics`, () => {
      const answer = moderate(text, language)
      const topic = answer.find(s => s.name === category)?.confidence ?? 0
      expect(topic).toBeGreaterThanOrEqual(0.5)
      for (const other of answer.filter(s => TOPICS.includes(s.name as ModerationCategory) && s.name !== category)) {
        expect(other.confidence, other.name).toBeLessThan(topic)
      }
      for (const harm of HARM) expect(score(text, language, harm), harm).toBeLessThan(0.5)
    })
  }

  it('grows with evidence and saturates below 1', () => {
    const one = score('The bank is open.', 'en', 'Finance')
    const two = score('The bank raised the interest rate for mortgages.', 'en', 'Finance')
    const many = score('Investors, banks, stock markets, dividends, mortgages, inflation and bitcoin.', 'en', 'Finance')
    expect(one).toBeGreaterThan(0)
    expect(two).toBeGreaterThan(one)
    expect(many).toBeGreaterThan(two)
    expect(many).toBeLessThanOrEqual(1)
  })
})

describe('hostile input', () => {
  const hostile = [
    'a'.repeat(100_000),
    'f u c k '.repeat(12_500),
    'you are a '.repeat(10_000),
    'i will will will will '.repeat(4_545),
    '*$@!'.repeat(25_000),
    'sh1t! '.repeat(16_666),
    'é'.repeat(50_000) + '\u0301'.repeat(50_000)
  ]
  it('answers 100,000-character texts quickly, in range', () => {
    for (const text of hostile) {
      const started = performance.now()
      const answer = moderate(text, 'en')
      const elapsed = performance.now() - started
      expect(answer).toHaveLength(MODERATION_CATEGORIES.length)
      for (const { confidence } of answer) expect(confidence >= 0 && confidence <= 1).toBe(true)
      expect(elapsed, text.slice(0, 12)).toBeLessThan(2000)
    }
  })
})
