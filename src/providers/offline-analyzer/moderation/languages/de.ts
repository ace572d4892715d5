/** German: our profane words (no cuss list; @2toad/profanity's German is a machine translation), phrase rules and topic words. */
import type { LanguageData } from './types.js'

export const de: LanguageData = {
  words: {
    general: 'scheiß* scheiss* kacke:1 kack* fick* gefickt verfickt* pisse:1 pissen:1 arsch:1 arschtritt:1 verarsch*:1 leck_mich_am_arsch',
    mild: 'verdammt:0 verdammte:0 verdammter:0 verdammtes:0 verflucht*:0 mist:0 mistding:0 scheibenkleister:0 mann_eh:0',
    insult: 'arschloch* arschgesicht* arschkriecher* hurensohn* hurensöhne wichser* fotze* mistkerl* miststück* drecksau* dreckschwein* drecks* schweinehund* bastard* penner*:1 missgeburt* pisser* vollpfosten*:1 schwanzlutscher* arschgeige*',
    insultMild: 'idiot* depp* trottel* vollidiot* dummkopf* blödmann* blödmänner blödian* doof:1 dumm:1 bescheuert*:1 dämlich*:1 schwachkopf* hohlkopf* spacko* volltrottel* dummerchen:1',
    sexInsult: 'schlampe schlampen nutte* hure huren flittchen*:1',
    slur: 'spast spasten spasti spastis mongo mongos schwuchtel* kanake* kanacke* neger* zigeuner*:1 kümmeltürke* polacke* judensau* tunte*:1 kinderficker* schlitzauge*',
    sexual: 'titten* muschi*:1 pimmel*:1 möse mösen bumsen*:1 blasen_lassen wichsen*',
    sexualMild: 'sex:1 penis:1 vagina:1 porno*:2 pornografie:2 orgasmus:1 masturb*:1',
    rape: 'vergewaltig*'
  },
  ordinary: 'dick dicke dicken dicker dickes dickste dicksten dickerchen kanal kanäle kanals analyse* fagott* titan* kunst abo abos ass rappe rappen cum',
  // Adolf Fick and his law, the village of Fickmühlen
  names: 'fick*',
  nameParticles: 'von van in aus nach',
  capitalisedNouns: true,
  idioms: 'bombenstimmung bombenwetter bombenerfolg bombenform bombenjob bombengeschäft',
  sets: {
    ich: 'ich i',
    dich: 'dich euch di',
    aux: 'werde werd wir will wirst werden gleich morgen heute nacht schon noch einfach echt wirklich dann mal jetzt ganz schwöre dass ich du alle',
    harminf: 'umbringen töten abstechen erstechen erschießen erschiessen abknallen erwürgen kaltmachen totschlagen vergewaltigen zerstören fertigmachen abmurksen aufschlitzen verprügeln umlegen',
    harm1: 'töte erschieße erschiesse ersteche erwürge vergewaltige zerstöre verprügle verprügel schlitze',
    adv: 'ein eine einen so echt voll total ja nur doch richtig ganz verdammt verdammter verdammtes dummer dumme dummes kleiner kleine kleines blöder blöde blödes mieser miese mieses',
    intensifier: 'verdammt verdammte verdammter verdammtes scheiß scheiss',
    bad: 'wertlos nutzlos erbärmlich dumm dämlich blöd hässlich fett widerlich ekelhaft peinlich armselig behindert lächerlich unfähig abschaum dreck nichts müll versager idiot',
    badcall: 'idiot idioten trottel depp versager penner loser spast opfer missgeburt abschaum',
    group: 'juden muslime moslems araber schwarze neger ausländer flüchtlinge migranten türken schwule lesben frauen zigeuner christen kanaken',
    vermin: 'ungeziefer ratten kakerlaken parasiten tiere untermenschen abschaum dreck wilde affen schweine pest krebs seuche',
    killed: 'vergast getötet erschossen umgebracht ausgerottet aufgehängt sterben verbrannt vernichtet vergasen töten ausrotten'
  },
  rules: {
    threat: [
      'ich bring|bringe dich|euch @aux*2 um',
      'ich @aux*3 dich|euch @aux*3 @harminf',
      'ich @harm1 dich|euch',
      'ich schlag|schlage dich|euch @aux*2 tot|zusammen|krankenhausreif',
      'ich stech|steche|knall|knalle|mach|mache|leg|lege dich|euch @aux*2 ab|kalt|platt|alle|tot|um',
      'ich *3 dir *3 fresse|schädel|genick|kehle|kugel'
    ],
    menace: [
      'du|ihr bist|seid @aux*2 tot',
      'du|ihr wirst|werdet @aux*2 sterben|bezahlen|bereuen|leiden|büßen',
      'ich weiß wo du wohnst',
      'das wirst du bereuen|büßen'
    ],
    deathWish: [
      '^ bring|bringt dich|euch @aux*2 um',
      'bring|bringt dich|euch selbst um',
      'töte dich selbst',
      'häng|häng dich|euch auf',
      'erhäng|erhänge dich|euch',
      'geh|geht sterben|verrecken|krepieren',
      'stirb|verreck|verrecke|krepier',
      'ich hoffe du stirbst|verreckst|krepierst'
    ],
    selfHarm: [
      'ich @aux*3 mich @aux*2 umbringen|töten|erschießen|aufhängen|ritzen|umzubringen',
      'ich bring|bringe mich um',
      'ich @aux*2 will|möchte|wünschte nur? sterben',
      'ich will nicht mehr leben',
      'selbstmord|suizid begehen',
      'meinem leben ein ende'
    ],
    insult: [
      'du|ihr bist|seid @adv*4 $flagged|@bad',
      'du @adv*2 $flagged|@badcall',
      'deine mutter|mama|schwester ist @adv*3 $flagged|@bad',
      'niemand mag|liebt dich'
    ],
    dismiss: [
      'halt|haltet die|deine|eure fresse|klappe|schnauze',
      'halt|haltet den|das? mund|maul',
      'fick dich|euch',
      'verpiss dich|euch',
      'leck mich',
      'hau|haut ab',
      'verzieh|verzieht dich|euch'
    ],
    hate: [
      '@group sind alle? *1 @vermin',
      'ich hasse alle? @group',
      'scheiß|scheiss|dreckige @group'
    ],
    hateViolent: [
      '@group sollte|sollten|müssen|gehören @aux*3 @killed',
      'tod den @group',
      '@group vergasen|töten|umbringen|ausrotten|aufhängen|erschießen'
    ]
  },
  topics: {
    Finance: 'börse:0.7 börsen*:0.7 aktie* aktionär* anleger*:0.6 investor* investition* dividende* portfolio*:0.4 bank:0.4 banken:0.5 kredit*:0.4 darlehen:0.5 hypothek* zinsen:0.5 zinssatz:0.7 leitzins:0.8 inflation wirtschaft*:0.4 finanz* dax:0.8 bitcoin* krypto* gewinn*:0.3 umsatz*:0.5 steuern:0.3 schulden:0.5 rezession* währung*:0.5 dollar:0.3 aktienkurs*:0.8 wall_street:0.7',
    Health: 'gesundheit*:0.6 arzt* krankenhaus* klinik* patient* antibiotik*:0.8 verschrieb* verschrieben rezept:0.3 medikament*:0.7 medizin*:0.6 krankheit*:0.7 symptom*:0.7 diagnos*:0.7 therap*:0.5 chirurg* impfung*:0.7 impfstoff*:0.7 virus:0.4 viren:0.4 infektion*:0.7 krebs:0.5 tumor* diabetes:0.7 pandemie* covid*:0.7 grippe:0.6 fieber:0.5 apothek*:0.6 schmerz*:0.3 depression*:0.4',
    'Religion & Belief': 'kirche*:0.7 gott:0.5 götter:0.5 religi*:0.8 glaube:0.4 beten:0.6 gebet*:0.6 bibel*:0.8 koran:0.8 tora:0.8 moschee*:0.8 synagoge*:0.8 tempel*:0.5 priester*:0.7 papst:0.7 bischof*:0.6 imam*:0.8 rabbi*:0.8 pfarrer*:0.7 christen:0.6 christlich*:0.7 jesus:0.7 muslim*:0.7 islam*:0.8 jüdisch*:0.6 judentum:0.8 hindu*:0.7 buddhis*:0.8 atheis*:0.7 gottesdienst*:0.8 sünde*:0.5 katholisch*:0.7 evangelisch*:0.6 allah:0.8 ramadan:0.7',
    'Illicit Drugs': 'kokain:0.8 heroin:0.8 crystal_meth:0.8 methamphetamin:0.8 fentanyl:0.8 opioid*:0.6 cannabis:0.6 marihuana:0.7 haschisch:0.7 ecstasy:0.5 mdma:0.8 lsd:0.8 überdosis:0.7 dealer*:0.5 drogen*:0.6 droge:0.6 rauschgift*:0.8 betäubungsmittel*:0.8 kartell*:0.5 junkie*:0.7 kiffen:0.7',
    'War & Conflict': 'krieg:0.7 kriege:0.7 krieges:0.7 bürgerkrieg:0.8 weltkrieg:0.8 armee*:0.6 truppe*:0.6 soldat*:0.7 militär*:0.6 bundeswehr:0.7 invasion:0.7 einmarsch:0.6 luftangriff*:0.8 rakete*:0.5 artillerie:0.8 schlacht:0.5 waffenstillstand:0.8 konflikt*:0.4 rebell*:0.5 miliz*:0.7 nato:0.6 bombardierung*:0.6 völkermord:0.7 panzer:0.4',
    Politics: 'politik*:0.8 politisch*:0.8 politiker*:0.8 wahl:0.5 wahlen:0.7 wahlkampf:0.8 abstimmung*:0.5 wähler*:0.7 regierung*:0.6 parlament*:0.8 bundestag:0.8 bundesrat:0.7 abgeordnete*:0.7 präsident*:0.5 bundeskanzler*:0.8 kanzler*:0.7 minister*:0.5 partei*:0.5 referendum:0.8 volksabstimmung:0.8 kandidat*:0.4 bürgermeister*:0.5 opposition:0.3 diplomat*:0.5 sanktion*:0.3 gesetzgebung:0.5 koalition*:0.6',
    Legal: 'gericht:0.4 gerichte:0.3 gerichtsverfahren:0.8 prozess:0.3 klage*:0.5 verklagt:0.7 verklagen:0.7 richter*:0.6 anwalt:0.7 anwält* rechtsanwalt*:0.8 urteil*:0.5 kläger*:0.8 angeklagte*:0.8 staatsanwalt*:0.8 anklage*:0.7 verurteilt*:0.6 vertrag*:0.3 verträge:0.3 rechtlich*:0.6 legal*:0.5 illegal*:0.5 gesetz:0.5 gesetze:0.5 rechtsstreit*:0.8 urheberrecht*:0.6 patent*:0.5 straftat*:0.6',
    'Firearms & Weapons': 'waffe:0.6 waffen:0.6 schusswaffe*:0.9 feuerwaffe*:0.9 gewehr*:0.8 pistole*:0.8 revolver*:0.8 munition:0.8 patrone*:0.5 messer:0.4 dolch*:0.5 granate*:0.7 sprengstoff*:0.7 bombe*:0.5 scharfschütze*:0.7 kalaschnikow:0.8 sturmgewehr*:0.9 maschinengewehr*:0.9',
    'Public Safety': 'polizei*:0.6 polizist*:0.6 feuerwehr*:0.7 notfall*:0.5 notruf*:0.6 evakuier*:0.7 rettungs*:0.5 krankenwagen:0.5 erdbeben:0.7 überschwemmung*:0.6 hochwasser:0.6 waldbrand*:0.7 orkan:0.6 verbrechen:0.5 kriminell*:0.5 festgenommen:0.6 festnahme*:0.6 raubüberfall*:0.6 einbruch*:0.5 diebstahl:0.5 terror*:0.5 anschlag*:0.5 explosion*:0.5 unfall*:0.4 sicherheit:0.3 krawall*:0.5 ausgangssperre:0.6 vermisst*:0.4 schießerei*:0.5',
    'Death Harm & Tragedy': 'tod:0.5 todes*:0.5 tot:0.4 tote:0.5 toten:0.5 gestorben:0.6 stirbt:0.5 sterben:0.4 getötet:0.6 tödlich*:0.6 beerdigung*:0.7 begräbnis*:0.7 trauerfeier*:0.7 tragödie*:0.7 tragisch*:0.6 opfer:0.4 trauer*:0.5 selbstmord*:0.8 suizid*:0.8 mord:0.6 morde:0.6 leiche*:0.7 massaker:0.7 katastrophe*:0.5 ertrunken:0.6 verletzt*:0.4 friedhof*:0.5 sarg:0.6',
    Violent: 'töten:0.3 ermordet:0.5 mord:0.5 erstochen:0.5 erschossen:0.5 gewalt*:0.5 angriff*:0.3 angegriffen:0.3 verprügelt:0.4 massaker:0.6 folter*:0.6 blutig*:0.4 brutal*:0.4 erwürgt:0.6 geköpft:0.7',
    Sexual: 'nackt*:0.3 erotik*:0.5 erotisch*:0.5 sexuell*:0.5 sexy:0.4 prostitu*:0.6 bordell*:0.6'
  }
}
