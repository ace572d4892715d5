import { weekdayNames, monthNames } from './dates.js'
import { functionWords } from './function-words.js'
import { fold } from './text.js'

/**
 * Given names of the six other languages that compromise's English lexicon lacks: accented ones, and
 * ones it reads as English words ("jean", "frank", "guy", "christian"). No source of given names per
 * language is at hand: the platform's CLDR data has none, nor have the hunspell dictionaries, which
 * mark no proper noun as a given name.
 */
const MORE_GIVEN_NAMES = `
  josé maría jesús ángel andrés álvaro ramón joaquín sebastián martín lucía sofía inés iñaki begoña nuria montserrat pilar rocío
  jordi xavier javier alejandro alfonso ignacio gonzalo rubén raúl óscar adrián víctor césar héctor íñigo agustín fermín
  mercedes dolores carmen concepción encarnación asunción inmaculada rosario consuelo amparo remedios beatriz ainhoa
  françois françoise andré hélène élodie émile étienne jérôme sébastien stéphane frédéric gérard géraldine céline cécile valérie
  amélie aurélie mélanie thérèse noël noëlle benoît benoîte cédric loïc maël gaël anaïs léa chloé zoé maïlys clément théo
  mathéo timothée raphaël grégoire honoré léon léonie solène hervé rené renée josé josée régis aimé désiré
  jürgen jörg björn günter günther rüdiger uwe jörn anke silke frauke gudrun dörte jan jannik lukas leon finn niklas lena
  hannah jonas elias emilia mila ida lotte frieda käthe jürgen sören ulf götz horst helmut hartmut dietmar volker ingo
  heiko maik mirko torsten thorsten detlef gerd reinhard bärbel ilse irmgard ursula waltraud hannelore
  joão gonçalo inês conceição fátima sebastião luís antónio antônio joana tomás duarte vitória leonor matilde simão
  brás estêvão lourenço valentim gustavo thiago tiago rafaela letícia larissa júlia cecília lúcia mônica márcia
  niccolò nicolò giuseppe giovanni francesco alessandro lorenzo matteo andrea chiara giulia francesca federica alessia
  gianluca pierluigi piero pietro giorgio sergio massimo maurizio stefano roberto enrico riccardo vittorio beppe
  pieter jeroen joost bram sander thijs sem daan femke sanne anouk lotte fleur inge wim kees henk joop geert hendrik
  ruud frits maarten bas ruben stijn tim koen wouter jasper lieke marieke annemieke mieke saskia ineke
  giorgia giorgio sergio silvio romano matteo mattia gabriele davide simone federico filippo tommaso edoardo leonardo
  emanuele salvatore antonio vincenzo domenico carlo mario luigi paolo franco marcello fabio claudio alberto nicola
  martina sara aurora ginevra beatrice alice greta anna elisa valentina silvia paola laura roberta daniela raffaella
  hugo lucas nathan louis gabriel arthur jules adam mathis enzo baptiste antoine nicolas julien thomas mathieu
  camille manon emma jade louise alice lina inès sarah juliette margaux pauline marion nathalie isabelle sylvie
  hugo martín mateo diego santiago manuel daniel pablo sergio jorge david marcos lucas leo elena marta paula julia
  laura cristina raquel irene andrea patricia marina alba claudia nerea noa vega
  maximilian alexander paul felix luis ben elias noah jonas leon finn emil anton jakob moritz tobias stefan andreas
  sophie marie emma mia hannah lina ella lea clara johanna katharina sabine petra monika susanne andrea birgit
  miguel francisco rui nuno pedro ricardo bruno andré hugo vasco afonso diogo rodrigo guilherme lucas gabriel
  maria ana beatriz mariana carolina sofia leonor matilde francisca catarina rita teresa helena margarida
  noah sem liam lucas levi finn daan luuk milan bram jesse thijs lars ruben tim teun julia emma tess sophie
  zoë evi sara nina lotte lisa anna eva saar noor fenna
  max moritz mats sven jesper
  jean yves guy édouard ségolène thierry didier franck heinz frank bernd joachim christian sigmar annalena renate heike katrin
  kerstin ulrike hubertus franz lothar rudi jupp cem willem piet klaas rutger sjaak sigrid jacobus dick sybrand wopke
  soraya gianni ugo gennaro ciro inácio jair dilma aníbal
  barack vladimir xi narendra recep volodymyr emmanuel olaf ursula kamala donald joe hillary angela`

/**
 * Given names that are also common capitalised words of a language (German nouns above all:
 * "Roman" is a novel, "Tod" death, "Gabe" a gift) or brands and places: never a person alone there,
 * only with a surname ("Roman Herzog").
 */
const LONE_EXCLUSIONS: Readonly<Record<string, string>> = {
  de: `angel art bart bill christen don eden edel ellen engel ernst flora frank gabe grace heide hope jude kai kali lila
    linde malen mark matt nur pascal roman rosa rose sonne tod wade will golf mercedes`,
  fr: 'rose marine olive france mercedes',
  es: 'rosa pilar luz paz mercedes sol reyes angeles cruz',
  it: 'rosa aurora serena allegra gioia mercedes',
  pt: 'rosa graca luz paz gloria dores mercedes',
  nl: 'roos mark bart ernst mercedes'
}

/** The given names to look for in `language`, folded: compromise's lexicon plus the list above, less small words, month names and weekdays. */
export function givenNames (language: string, compromiseNames: Iterable<string>): ReadonlySet<string> {
  const months = monthNames(language)
  const excluded = new Set<string>([...functionWords(language), ...weekdayNames(language), ...months.long.keys()])
  const names = new Set<string>()
  for (const name of [...compromiseNames, ...MORE_GIVEN_NAMES.split(/\s+/)]) {
    const folded = fold(name)
    if (folded.length >= 3 && !excluded.has(folded)) names.add(folded)
  }
  return names
}

/** Given names (folded) that are never a person on their own in `language`. */
export const loneNameExclusions = (language: string): ReadonlySet<string> =>
  new Set((LONE_EXCLUSIONS[language] ?? '').split(/\s+/).filter(w => w !== ''))
