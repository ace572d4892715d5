/**
 * Small words of each language (folded): articles, pronouns, prepositions, conjunctions and common
 * adverbs. A capitalised one opens a sentence rather than a name.
 */
import { own } from '../../../lib/own.js'

const FUNCTION_WORDS: Readonly<Record<string, string>> = {
  en: `a an the this that these those i you he she it we they me him her us them my your his its our their mine yours
    in on at by for with from to of into onto over under about after before between during through without within and or but
    nor so yet if then than because while when where why how what which who whom whose not no yes all any each every some
    many much more most other such only also just very too as is are was were be been being have has had do does did will
    would shall should can could may might must there here today tomorrow yesterday however meanwhile although though`,
  fr: `le la les l un une des du de d au aux ce cet cette ces mon ma mes ton ta tes son sa ses notre nos votre vos leur leurs
    je tu il elle on nous vous ils elles me te se lui y en moi toi eux qui que quoi dont ou où et mais donc or ni car si
    ne pas plus moins tres trop bien aussi alors puis ensuite dans sur sous avec sans pour par chez vers entre depuis pendant
    avant apres contre selon malgre comme quand lorsque tout tous toute toutes chaque aucun aucune certains certaines
    est sont etait etaient sera seront a ont avait avaient fut c ceci cela ca voici voila oui non hier aujourd demain
    cependant pourtant ainsi enfin`,
  de: `der die das den dem des ein eine einer eines einem einen kein keine keinen keinem keiner dieser diese dieses diesen
    diesem jener jede jeder jedes jeden jedem mein meine dein deine deinen deinem deiner sein seine ihr ihre unser unsere euer eure ich du er sie es wir ihr
    man mich dich sich uns euch ihm ihn ihnen wer was wo wie warum wann welche welcher welches und oder aber doch sondern denn
    weil wenn als ob dass damit nicht auch nur noch schon sehr so dann da hier dort heute morgen gestern in im ins an am auf
    aus bei beim mit nach von vom vor zu zum zur uber unter durch fur gegen ohne um bis seit wahrend zwischen neben hinter
    ist sind war waren wird werden wurde wurden hat haben hatte hatten kann konnen muss mussen soll sollen will wollen
    alle alles viele einige manche beide etwa jedoch trotzdem deshalb also ja nein`,
  es: `el la los las lo un una unos unas al del de este esta estos estas ese esa esos esas aquel aquella mi mis tu tus su sus
    nuestro nuestra nuestros nuestras yo tu el ella usted nosotros vosotros ellos ellas ustedes me te se nos os le les que
    quien quienes cual cuales donde cuando como porque pero sino y e o u ni si no mas menos muy tambien ya aun todavia en
    con sin por para sobre bajo entre hasta desde durante tras contra segun hacia ante es son era eran fue fueron sera ha
    han habia hay todo toda todos todas cada algun alguna algunos algunas otro otra otros otras hoy ayer manana sin embargo
    asi entonces luego aqui alli`,
  it: `il lo la i gli le l un uno una un del dello della dei degli delle al allo alla ai agli alle dal dallo dalla dai dagli
    dalle nel nello nella nei negli nelle sul sullo sulla sui sugli sulle di a da in con su per tra fra questo questa questi
    queste quello quella quelli quelle mio mia miei mie tuo tua suo sua suoi sue nostro nostra vostro vostra loro io tu lui
    lei noi voi essi esse mi ti si ci vi ne che chi cui dove quando come perche ma e ed o oppure ne se non piu meno molto
    anche gia ancora sempre mai tutto tutta tutti tutte ogni alcuni alcune altro altra altri altre e sono era erano fu
    sara ha hanno aveva oggi ieri domani pero quindi allora poi qui li cosi`,
  pt: `o a os as um uma uns umas do da dos das no na nos nas ao aos pelo pela pelos pelas de em com sem por para sobre sob
    entre ate desde durante contra segundo este esta estes estas esse essa esses essas aquele aquela isto isso aquilo meu minha
    meus minhas teu tua seu sua seus suas nosso nossa eu tu ele ela voce nos vos eles elas voces me te se lhe lhes que quem
    qual quais onde quando como porque mas e ou nem se nao mais menos muito tambem ja ainda sempre nunca todo toda todos
    todas cada algum alguma alguns algumas outro outra outros outras e sao era eram foi foram sera tem ha hoje ontem amanha
    porem entao assim aqui ali`,
  nl: `de het een den der des dit dat deze die mijn jouw zijn haar ons onze hun uw ik jij je hij zij ze wij we jullie u me
    mij hem hen wie wat waar wanneer hoe waarom welke en of maar want dus omdat als dan toen terwijl niet geen ook nog al
    wel zeer heel erg in op aan bij met van voor naar uit over onder door tegen zonder tussen na om tot sinds tijdens is zijn
    was waren wordt worden werd werden heeft hebben had hadden kan kunnen moet moeten zal zullen wil alle alles veel sommige
    elke ieder vandaag gisteren morgen hier daar er echter toch`
}

// determiners: after one of these a capitalised word is a noun ("der Bauer"), not a person's name
const DETERMINERS: Readonly<Record<string, string>> = {
  en: 'the a an this that these those every each no',
  fr: 'le la les l un une des du ce cet cette ces chaque',
  de: 'der die das den dem des ein eine einer eines einem einen kein keine keinen keinem keiner dieser diese dieses diesen diesem jeder jede jedes jeden jedem mein meine sein seine ihr ihre unser unsere',
  es: 'el la los las un una unos unas este esta estos estas ese esa cada',
  it: 'il lo la i gli le l un uno una questo questa ogni',
  pt: 'o a os as um uma uns umas este esta esse essa cada',
  nl: 'de het een dit dat deze die elke ieder'
}

const toSet = (words: string | undefined): ReadonlySet<string> => new Set((words ?? '').split(/\s+/).filter(w => w !== ''))
const functionSets = new Map<string, ReadonlySet<string>>()
const determinerSets = new Map<string, ReadonlySet<string>>()

/** The small words of `language`, folded. */
export function functionWords (language: string): ReadonlySet<string> {
  let set = functionSets.get(language)
  if (set === undefined) functionSets.set(language, set = toSet(own(FUNCTION_WORDS, language)))
  return set
}

/** The articles and determiners of `language`, folded. */
export function determiners (language: string): ReadonlySet<string> {
  let set = determinerSets.get(language)
  if (set === undefined) determinerSets.set(language, set = toSet(own(DETERMINERS, language)))
  return set
}
