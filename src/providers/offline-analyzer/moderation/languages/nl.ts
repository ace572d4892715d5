/** Dutch: our profane words (neither cuss nor @2toad/profanity has Dutch), phrase rules and topic words. */
import type { LanguageData } from './types.js'

export const nl: LanguageData = {
  words: {
    general: 'kut* kankerlijer* kankerhoer* kankerzooi kankerjoch kankerwijf kankermongool kankerturk tering:1 teringlijer* teringzooi tyfus:1 tyfuslijer* godverdomme* gvd:1 klote* kolere* klere:1 klerelijer* pleuris:1 reet:1 neuken* geneukt',
    mild: 'verdomme:1 verdorie:0 jeetje:0 potverdorie:0 godverdorie:0 jemig:0 shit:1 lullig:0',
    insult: 'klootzak* lul:1 lulhannes* smeerlap* schoft schoften schofterig etterbak* hufter* zakkenwasser* kutwijf* sukkelaar*:1 trut:1 trutten:1 rotzak*',
    insultMild: 'idioot* debiel*:1 randdebiel* sukkel:1 sukkels:1 stommeling*:1 oen:1 eikel:1 eikels:1 achterlijk*:1 imbeciel* mafkees:1 malloot:1',
    sexInsult: 'hoer hoeren hoertje* slet sletten sletje* teef:1',
    slur: 'flikker flikkers nikker* neger:1 negers:1 mongool:1 mongolen:0 makak spast spasten kaaskop:1 poepchinees* zandneger*',
    sexual: 'tieten:1 beffen pijpbeurt*',
    sexualMild: 'seks:1 sex:1 penis:1 vagina:1 porno*:2 orgasme*:1 masturb*:1',
    rape: 'verkracht*'
  },
  ordinary: 'kanaal kanalen kont zak zakken dik dikke nicht nichten fokken fokker abbo abo abos fu fanaal cum kutter kotter kuttekoven kuttingen sluter rapé makaak makaken',
  names: 'dick',
  nameParticles: 'van in uit naar',
  sets: {
    je: 'je jou jullie u',
    aux: 'ga gaan zal zullen zou wil kom echt gewoon nog vandaag morgen meteen straks zweer dat ik je',
    harm: 'vermoorden afmaken neersteken neerschieten doodslaan doodschieten wurgen verkrachten slaan pakken kapotmaken afknallen doodmaken opensnijden martelen',
    adv: 'een echt zo heel gewoon maar vieze vuile smerige stomme domme kleine grote achterlijke kanker gore verdomde',
    intensifier: 'kanker kut tering tyfus verdomde',
    bad: 'waardeloos nutteloos zielig dom stom lelijk dik walgelijk vies achterlijk debiel niks niets niemand afschuwelijk belachelijk sneu idioot mislukkeling mislukt loser sukkel',
    badcall: 'idioot sukkel loser debiel mongool eikel oen kneus mislukkeling',
    group: 'joden moslims arabieren zwarten negers buitenlanders vluchtelingen migranten turken marokkanen homos homo vrouwen zigeuners christenen allochtonen',
    vermin: 'ongedierte ratten kakkerlakken parasieten dieren beesten wilden apen varkens honden pest kanker tuig uitschot',
    killed: 'dood vergast vermoord uitgeroeid opgehangen gedood afgemaakt sterven'
  },
  rules: {
    threat: [
      'ik @aux*2 maak|sla|steek|schiet|knal @je @aux*2 af|dood|kapot|neer|lek',
      'ik @aux*2 sla|trap|schop @je @aux*2 in elkaar',
      'ik vermoord|wurg|verkracht|martel @je',
      'ik @aux*3 @je @aux*3 @harm'
    ],
    menace: [
      'je|jij bent|ben @aux*2 dood',
      'je|jij|jullie gaat|gaan|zal|zullen @aux*2 eraan|boeten|betalen|sterven',
      'ik weet waar je|jij woont',
      'dat zal je|jij bezuren|berouwen'
    ],
    deathWish: [
      'ga|val|vallen dood',
      'krijg|krijgt de kanker|tering|tyfus|pest|klere|kolere|pleuris',
      'hoop dat @je @aux*2 doodgaat|sterft|creperen|crepeert',
      'pleeg zelfmoord',
      'maak jezelf van kant',
      'hang jezelf op',
      '^ sterf|crepeer'
    ],
    selfHarm: [
      'ik wil dood',
      'ik wil niet meer leven',
      'ik wil sterven|doodgaan',
      'ik @aux*2 maak|breng mezelf|me @aux*2 van kant|om',
      'ik @aux*3 zelfmoord plegen',
      'er een einde|eind aan maken'
    ],
    insult: [
      'je|jij|jullie bent|ben|zijn @adv*4 $flagged|@bad',
      'jij|jullie @adv*2 $flagged|@badcall',
      'niemand houdt van je|jou',
      'je|jouw moeder is @adv*3 $flagged|@bad'
    ],
    dismiss: [
      'hou|houd|houdt je|jouw|jullie bek|kop|muil|smoel|waffel',
      'kop|bek dicht',
      'rot|rotten op',
      'flikker|sodemieter|donder|lazer|opflikkeren op'
    ],
    hate: [
      '@group zijn allemaal? *1 @vermin',
      'ik haat alle|de? @group',
      'vieze|vuile|kanker @group'
    ],
    hateViolent: [
      '@group moeten|zouden|verdienen @aux*3 @killed',
      'dood aan de @group',
      '@group vergassen|vermoorden|uitroeien|afmaken'
    ]
  },
  topics: {
    Finance: 'beurs:0.7 aandelen:0.6 aandeelhouder* belegger*:0.6 investeerder* investering*:0.5 dividend*:0.7 portefeuille:0.3 bank:0.4 banken:0.5 lening*:0.5 hypothe*:0.7 rente:0.5 inflatie:0.6 economie:0.4 economisch*:0.4 financi* aex:0.8 bitcoin* crypto* winst:0.3 omzet:0.5 belasting*:0.4 schulden:0.5 begroting*:0.4 recessie:0.7 valuta:0.5 dollar:0.3 wall_street:0.7 koers*:0.4 beurskoers*:0.8 aandelenmarkt*:0.8',
    Health: 'gezondheid*:0.6 arts:0.6 artsen:0.6 dokter*:0.6 huisarts*:0.7 verpleegkundige*:0.6 ziekenhuis*:0.6 kliniek*:0.6 patiënt*:0.6 antibiotica:0.8 antibioticum:0.8 voorgeschreven:0.6 recept:0.3 medicijn*:0.7 medisch*:0.6 ziekte*:0.7 symptom*:0.7 diagnose*:0.7 therapie*:0.5 chirurg*:0.7 vaccin*:0.7 virus:0.4 infectie*:0.7 kanker:0.6 tumor*:0.7 diabetes:0.7 pandemie:0.6 covid*:0.7 griep:0.6 koorts:0.5 apotheek*:0.6 pijn:0.3 depressie:0.4',
    'Religion & Belief': 'kerk*:0.7 god:0.5 goden:0.5 religi*:0.8 geloof:0.4 bidden:0.6 gebed*:0.6 bijbel*:0.8 koran:0.8 thora:0.8 moskee*:0.8 synagoge*:0.8 tempel*:0.5 priester*:0.7 paus:0.7 bisschop*:0.6 imam*:0.8 rabbijn*:0.8 dominee*:0.7 christen*:0.7 christelijk*:0.7 jezus:0.7 christus:0.6 moslim*:0.7 islam*:0.8 joods*:0.6 jodendom:0.8 hindoe*:0.7 boeddh*:0.8 atheïs*:0.7 spiritu*:0.5 eredienst:0.7 katholie*:0.7 protestant*:0.7 allah:0.8 kathedraal:0.7 kapel:0.4 ramadan:0.7',
    'Illicit Drugs': 'cocaïne:0.8 heroïne:0.8 crystal_meth:0.8 methamfetamine:0.8 fentanyl:0.8 opioïd*:0.6 cannabis:0.6 marihuana:0.7 wiet:0.6 hasj:0.7 joint:0.3 xtc:0.7 ecstasy:0.5 mdma:0.8 lsd:0.8 overdosis:0.7 dealer*:0.5 drugs:0.6 drugsdeal*:0.8 drugshandel:0.8 verdovende_middelen:0.8 kartel*:0.5 junkie*:0.7 verslaafd*:0.4',
    'War & Conflict': 'oorlog*:0.7 leger:0.5 troepen:0.7 soldaat:0.7 soldaten:0.7 militair*:0.6 krijgsmacht:0.7 invasie:0.7 luchtaanval*:0.8 bombardement*:0.6 raket*:0.5 artillerie:0.8 veldslag*:0.7 staakt_het_vuren:0.8 wapenstilstand:0.8 gevecht*:0.5 conflict*:0.4 rebel*:0.5 opstandeling*:0.7 militie*:0.7 navo:0.6 nato:0.6 genocide:0.7',
    Politics: 'politiek:0.8 politieke:0.8 politicus:0.8 politici:0.8 verkiezing*:0.8 stemming:0.4 kiezer*:0.7 regering*:0.6 kabinet:0.5 parlement*:0.8 tweede_kamer:0.8 eerste_kamer:0.8 kamerlid*:0.8 kamerleden:0.8 senaat:0.7 president*:0.5 premier:0.6 minister*:0.5 partij:0.3 partijen:0.3 referendum:0.8 kandidaat:0.4 burgemeester*:0.5 oppositie:0.4 diplomat*:0.5 sancties:0.3 wetgeving:0.5 coalitie*:0.6',
    Legal: 'rechtbank*:0.8 rechter*:0.6 advocaat:0.7 advocaten:0.7 rechtszaak:0.8 rechtszaken:0.8 aangeklaagd:0.8 aanklacht:0.7 aanklager*:0.8 officier_van_justitie:0.8 verdachte*:0.6 gedaagde*:0.8 vonnis*:0.7 jury:0.5 veroordeeld*:0.6 hoger_beroep:0.7 contract*:0.4 juridisch*:0.8 legaal:0.5 illegaal:0.5 illegale:0.5 wet:0.4 wetten:0.4 auteursrecht*:0.6 octrooi*:0.6 patent*:0.5 misdrijf:0.6 misdrijven:0.6 strafbaar:0.6',
    'Firearms & Weapons': 'wapen:0.6 wapens:0.6 vuurwapen*:0.9 geweer:0.8 geweren:0.8 pistool:0.8 pistolen:0.8 revolver*:0.8 munitie:0.8 kogel*:0.5 messen:0.4 dolk:0.5 machete*:0.6 granaat:0.7 granaten:0.7 explosieve*:0.6 explosief:0.6 bom:0.4 bommen:0.5 sluipschutter*:0.7 machinegeweer*:0.9 kalasjnikov:0.8',
    'Public Safety': 'politie*:0.6 agenten:0.3 brandweer*:0.7 noodgeval*:0.5 nooddienst*:0.6 112:0.5 evacu*:0.7 ambulance*:0.6 hulpdienst*:0.6 aardbeving*:0.7 overstroming*:0.6 bosbrand*:0.7 orkaan:0.6 misdaad:0.5 crimineel*:0.5 criminelen:0.5 gearresteerd:0.6 arrestatie*:0.6 aangehouden:0.5 overval*:0.5 inbraak*:0.5 diefstal*:0.5 terreur*:0.5 terroris*:0.5 aanslag*:0.5 explosie*:0.5 ongeluk*:0.4 ongeval*:0.4 veiligheid:0.3 rellen:0.6 avondklok:0.6 vermist*:0.4 schietpartij*:0.5',
    'Death Harm & Tragedy': 'doden:0.5 overleden:0.7 overlijden:0.7 stierf:0.6 sterven:0.4 gedood:0.6 omgekomen:0.7 dodelijk*:0.6 begrafenis*:0.7 uitvaart*:0.7 tragedie*:0.7 tragisch*:0.6 slachtoffer*:0.5 rouw*:0.5 zelfmoord*:0.8 suïcide:0.8 moord:0.6 moorden:0.6 lijk:0.5 lijken:0.5 bloedbad:0.7 ramp:0.4 rampen:0.4 catastrofe:0.5 verdronken:0.6 gewond*:0.4 begraafplaats*:0.5 kerkhof:0.5 doodskist*:0.6',
    Violent: 'vermoord*:0.5 moord:0.5 neergestoken:0.6 neergeschoten:0.6 geweld*:0.5 gewelddadig*:0.5 aanval*:0.3 mishandel*:0.5 bloedbad:0.6 marteling*:0.6 gemarteld:0.6 bloedig*:0.4 gewurgd:0.6 onthoofd*:0.7',
    Sexual: 'naakt*:0.3 erotisch*:0.5 erotiek:0.5 seksueel:0.5 seksuele:0.5 sexy:0.4 prostitu*:0.6 bordeel:0.6'
  }
}
