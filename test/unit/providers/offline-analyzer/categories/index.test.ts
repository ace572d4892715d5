import { describe, expect, it } from 'vitest'
import { CATEGORY_LANGUAGES, CATEGORY_PATHS, classifyCategories } from '../../../../../src/providers/offline-analyzer/categories/index.js'
import type { Scored } from '../../../../../src/core/analysis/results.js'

/** Confidences in [0, 1], best first, at most three, no path twice. */
function expectWellFormed (answer: Scored[]): void {
  expect(answer.length).toBeLessThanOrEqual(3)
  for (const c of answer) {
    expect(c.confidence).toBeGreaterThanOrEqual(0)
    expect(c.confidence).toBeLessThanOrEqual(1)
    expect(CATEGORY_PATHS).toContain(c.name)
  }
  const confidences = answer.map(c => c.confidence)
  expect(confidences).toEqual([...confidences].sort((a, b) => b - a))
  expect(new Set(answer.map(c => c.name)).size).toBe(answer.length)
}

const top = (text: string, language: string): string | undefined => {
  const answer = classifyCategories(text, language)
  expectWellFormed(answer)
  return answer[0]?.name
}

const ENGLISH: Array<[string, string]> = [
  ['/Sports', 'The team won the championship after a tense final, and the coach praised every player in the stadium.'],
  ['/Sports/Team Sports/Soccer', 'The striker scored two goals before the goalkeeper saved a penalty in the Premier League match.'],
  ['/Finance', 'Inflation slowed and the central bank kept interest rates unchanged, while the government cut taxes to support the economy.'],
  ['/Finance/Investing', 'Shares rose on Wall Street as investors bought stocks and the Nasdaq gained, lifting dividend funds.'],
  ['/Arts & Entertainment/Music & Audio', 'The band released a new album and the singer announced a concert tour with a full orchestra.'],
  ['/Arts & Entertainment/Movies', 'The film by the acclaimed director topped the box office, and its lead actress is tipped for an Oscar.'],
  ['/Arts & Entertainment/Visual Art & Design', 'The museum opens an exhibition of Monet paintings and sculptures from private galleries.'],
  ['/Computers & Electronics', 'The new laptop has a faster processor, more RAM and a brighter display than last year\'s model.'],
  ['/Computers & Electronics/Programming', 'The developer fixed a bug in the JavaScript source code and pushed the repository to GitHub.'],
  ['/Health', 'The doctor said the patient needs treatment for diabetes and a new vaccine to prevent infection.'],
  ['/Food & Drink', 'The restaurant serves fresh salmon with rice, a glass of white wine and chocolate for dessert.'],
  ['/Food & Drink/Cooking & Recipes', 'Preheat the oven, mix the flour with two tablespoons of sugar, then bake the dough for twenty minutes.'],
  ['/Travel', 'Our flight to Lisbon left the airport late, but the hotel near the beach made the vacation worth it.'],
  ['/Law & Government/Politics', 'The president lost the election after voters backed the opposition party in parliament.'],
  ['/Law & Government/Legal', 'The judge dismissed the lawsuit after the defendant\'s lawyer filed an appeal with the supreme court.'],
  ['/Real Estate', 'Rents keep rising, so more tenants want to buy an apartment, but mortgage rates and house prices are high.'],
  ['/Pets & Animals', 'Our puppy and the kitten visited the veterinarian, who checked their fur and paws.'],
  ['/People & Society/Religion & Belief', 'The priest led the prayer in the church, and believers gathered for Easter worship.'],
  ['/Games', 'The new video game for PlayStation and Xbox adds multiplayer modes that gamers have long wanted.'],
  ['/Autos & Vehicles', 'The electric car has a bigger battery, and the carmaker says the SUV can be charged at any dealership.'],
  ['/Jobs & Education/Education', 'Students at the university prepare for exams while teachers grade homework in the classroom.'],
  ['/Jobs & Education/Jobs', 'The company is hiring: send your resume, and the recruiter will schedule a job interview to discuss the salary.'],
  ['/Home & Garden', 'We planted seeds in the garden, mowed the lawn and bought new furniture for the living room.'],
  ['/Shopping', 'Black Friday discounts drew shoppers to the mall, and the online store offered free shipping on every order.'],
  ['/Beauty & Fitness', 'After her workout at the gym she uses a moisturizer and a serum as part of her skincare routine.'],
  ['/Books & Literature', 'The author\'s new novel became a bestseller, and her publisher plans a second printing of the book.'],
  ['/Science', 'Physicists at the laboratory ran an experiment that confirms the theory about quantum particles.'],
  ['/Internet & Telecom', 'The operator is rolling out 5G and fibre broadband so every household gets faster internet and Wi-Fi.'],
  ['/Business & Industrial', 'The manufacturer will close a factory after the merger, and its CEO promised to fix the supply chain.']
]

const OTHERS: Array<[string, string, string]> = [
  ['fr', '/Sports', 'L\'équipe a remporté le championnat après une finale serrée, et l\'entraîneur a félicité chaque joueur au stade.'],
  ['fr', '/Sports/Team Sports/Soccer', 'L\'attaquant a marqué deux buts avant que le gardien de but n\'arrête un penalty en Ligue 1.'],
  ['fr', '/Finance/Investing', 'Les actions ont progressé à la Bourse de Paris, les investisseurs achetant des titres et le CAC 40 gagnant 2 %.'],
  ['fr', '/Health', 'Le médecin a expliqué que le patient a besoin d\'un traitement contre le diabète et d\'un vaccin.'],
  ['fr', '/Food & Drink/Cooking & Recipes', 'Préchauffez le four, mélangez la farine avec deux cuillères à soupe de sucre, puis faites cuire la pâte.'],
  ['fr', '/Travel', 'Notre vol pour Lisbonne a quitté l\'aéroport en retard, mais l\'hôtel près de la plage a sauvé les vacances.'],
  ['fr', '/Law & Government/Politics', 'Le président a perdu l\'élection après que les électeurs ont soutenu le parti d\'opposition au parlement.'],
  ['fr', '/Arts & Entertainment/Music & Audio', 'Le groupe a sorti un nouvel album et la chanteuse a annoncé une tournée de concerts.'],
  ['de', '/Sports', 'Die Mannschaft gewann die Meisterschaft nach einem spannenden Finale, und der Trainer lobte jeden Spieler im Stadion.'],
  ['de', '/Sports/Team Sports/Soccer', 'Der Stürmer erzielte zwei Tore, bevor der Torwart einen Elfmeter in der Bundesliga hielt.'],
  ['de', '/Finance/Investing', 'Die Aktien stiegen an der Börse, Anleger kauften Aktien und der DAX legte zu, was Fonds mit Dividenden half.'],
  ['de', '/Health', 'Der Arzt sagte, der Patient brauche eine Behandlung gegen Diabetes und eine Impfung gegen die Infektion.'],
  ['de', '/Computers & Electronics/Programming', 'Der Entwickler behob einen Bug im JavaScript-Quellcode und schob das Repository auf GitHub.'],
  ['de', '/Travel', 'Unser Flug nach Lissabon verließ den Flughafen verspätet, aber das Hotel am Strand rettete den Urlaub.'],
  ['es', '/Sports', 'El equipo ganó el campeonato tras una final reñida y el entrenador felicitó a cada jugador en el estadio.'],
  ['es', '/Health', 'El médico dijo que el paciente necesita un tratamiento para la diabetes y una vacuna contra la infección.'],
  ['es', '/Law & Government/Politics', 'El presidente perdió las elecciones después de que los votantes apoyaran al partido de la oposición en el parlamento.'],
  ['es', '/Food & Drink/Cooking & Recipes', 'Precalienta el horno, mezcla la harina con dos cucharadas de azúcar y hornea la masa veinte minutos.'],
  ['it', '/Sports/Team Sports/Soccer', 'L\'attaccante ha segnato due gol prima che il portiere parasse un rigore in Serie A.'],
  ['it', '/Travel', 'Il nostro volo per Lisbona è partito in ritardo dall\'aeroporto, ma l\'albergo vicino alla spiaggia ha salvato la vacanza.'],
  ['pt', '/Real Estate', 'Os preços dos imóveis subiram e muitos inquilinos querem comprar um apartamento, mas o crédito habitação está caro.'],
  ['pt', '/Science', 'Os cientistas do laboratório fizeram uma experiência que confirma a teoria sobre as partículas quânticas.'],
  ['nl', '/Pets & Animals', 'Onze puppy en het kitten gingen naar de dierenarts, die hun vacht en poten controleerde.'],
  ['nl', '/Finance/Banking', 'De bank verhoogde de rente op spaarrekeningen en klanten kunnen nu gratis overboekingen doen via internetbankieren.']
]

describe('categories', () => {
  it('lists the seven languages and a few dozen Google paths', () => {
    expect(CATEGORY_LANGUAGES).toEqual(expect.arrayContaining(['en', 'fr', 'de', 'es', 'it', 'pt', 'nl']))
    expect(CATEGORY_PATHS.length).toBeGreaterThanOrEqual(25)
    for (const path of CATEGORY_PATHS) expect(path).toMatch(/^(\/[A-Z][\w ,&-]+)+$/)
  })

  for (const [path, text] of ENGLISH) {
    it(`English: ${path}`, () => { expect(top(text, 'en')).toBe(path) })
  }
  for (const [language, path, text] of OTHERS) {
    it(`${language}: ${path}`, () => { expect(top(text, language)).toBe(path) })
  }

  it('reads region subtags as their language', () => {
    expect(top('Le médecin a expliqué que le patient a besoin d\'un traitement contre le diabète.', 'fr-CA')).toBe('/Health')
  })

  it('abstains on neutral sentences', () => {
    for (const [language, text] of [['en', 'The meeting is at three.'], ['en', 'I will call you tomorrow when I get home.'],
      ['fr', 'La réunion est à trois heures.'], ['de', 'Das Treffen ist um drei Uhr.'], ['es', 'La reunión es a las tres.'],
      ['it', 'La riunione è alle tre.'], ['pt', 'A reunião é às três.'], ['nl', 'De vergadering is om drie uur.']] as const) {
      expect(classifyCategories(text, language), `${language}: ${text}`).toEqual([])
    }
  })

  it('abstains when the evidence is one word each for several categories', () => {
    expect(classifyCategories('The doctor bought a car, a novel and a guitar.', 'en')).toEqual([])
  })

  it('abstains when a long text mentions a topic only in passing', () => {
    const filler = 'She looked out of the window and thought about the long day ahead of her. '.repeat(40)
    expect(classifyCategories(filler + 'The team won the match.', 'en')).toEqual([])
    expect(top('The team won the match and the coach praised the players in the stadium.', 'en')).toBe('/Sports')
  })

  it('answers two categories for a text about two things', () => {
    const answer = classifyCategories('The football club\'s shares fell on the stock exchange after investors learned that the striker ' +
      'would miss the Champions League final with a knee injury.', 'en')
    expectWellFormed(answer)
    expect(answer.map(c => c.name)).toEqual(expect.arrayContaining(['/Finance/Investing', '/Sports/Team Sports/Soccer']))
  })

  it('has more confidence with more evidence', () => {
    const some = classifyCategories('The team won the match and the coach praised the players.', 'en')[0]!
    const more = classifyCategories('The team won the championship final, the coach praised the players, and the stadium cheered the league title.', 'en')[0]!
    expect(some.name).toBe('/Sports')
    expect(more.name).toBe('/Sports')
    expect(more.confidence).toBeGreaterThan(some.confidence)
  })

  it('answers nothing for a language it has no lexicon for, or for no text', () => {
    expect(classifyCategories('Laget vann mästerskapet efter en spännande final.', 'sv')).toEqual([])
    expect(classifyCategories('', 'en')).toEqual([])
  })

  it('reads 100,000 characters quickly', () => {
    const text = ENGLISH.map(([, t]) => t).join(' ').repeat(40).slice(0, 100_000)
    const started = performance.now()
    expectWellFormed(classifyCategories(text, 'en'))
    expect(classifyCategories('x'.repeat(100_000), 'en')).toEqual([])
    expect(performance.now() - started).toBeLessThan(2000)
  })
})
