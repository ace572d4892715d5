/** Italian: our profane words (cuss/it adds its own), phrase rules and topic words. */
import type { LanguageData } from './types.js'

export const it: LanguageData = {
  words: {
    general: 'cazzo cazzi cazzate:1 cazzata:1 merda merde minchia* porca_puttana porca_troia porco_dio porca_madonna porco_cane:1 fottuto* fottuta* fottere fottersene coglioni stronzata* incazz*:1 culo:1 sticazzi',
    mild: 'accidenti:0 mannaggia:0 cacchio:0 cribbio:0 perbacco:0 dannazione:0 maledizione:0 bordello:1 porca_miseria:0 porca_vacca:0',
    insult: 'stronzo* stronza* stronzi stronze coglione* cogliona* cazzone* testa_di_cazzo teste_di_cazzo bastardo* bastarda* figlio_di_puttana figlio_di_troia figli_di_puttana figlio_di_buona_donna pezzo_di_merda faccia_di_merda rompicoglioni* leccaculo* paraculo*:1 merdaccia',
    insultMild: 'idiota* imbecille* cretino* cretina* deficiente*:1 scemo scema scemi sceme stupido* stupida* demente*:1 somaro:1 ritardato:1 ritardata:1 ritardati:1 babbeo*:1 fesso:1 fessa:1 pirla:1 coglionata:1',
    sexInsult: 'puttana* troia troie troione zoccola zoccole mignotta* bagascia* baldracca*',
    slur: 'frocio* froci ricchione* recchione* culattone* negro:1 negri:1 negra:1 negre:1 terrone* crucco*:1 zingaro:1 zingari:1 zingara:1 mongoloide*',
    sexual: 'pompino* pompini fica:1 figa:1 tette:1 chiavare:1 trombare*:1 sborra* sborrare ciucciami_il_cazzo succhiami',
    sexualMild: 'sesso:1 pene:0 peni:0 vagina:1 vagine:1 porno*:2 orgasmo*:1 masturb*:1 anale:0 anali:0 ano:0 coito:0 eiacul*:0 sperma:0 testicol*:0 scrot*:0 cunnilin*:0 fellatio:1',
    rape: 'stupro* stuprat* violentata:1 violentate:1'
  },
  ordinary: 'fu rape fagiolo fagioli fagiolini madonna fallo falli pula cessa cessi tega terga mussa musso durello durelli recchia secchione secchiona secchioni mocciosa moccioso menare menato infame checché cucco cuccano cuccato goldoni ritardatore ritardatori porco porci pistolotto',
  places: 'troia',
  nameParticles: 'di da a in de del della per verso tra fra e ed',
  idioms: 'morto|morta|morti|morte_di_fame|sete|sonno|stanchezza|freddo|caldo|paura|noia|vergogna|invidia morire_dal_ridere',
  sets: {
    ti: 'ti vi',
    aux: 'io giuro che adesso ora domani stanotte davvero proprio lo la',
    harm: 'ammazzo ammazzerò ammazzerei uccido ucciderò ucciderei sparo sparerò accoltello accoltellerò sgozzo sgozzerò strangolo strangolerò massacro massacrerò',
    harmti: 'ucciderti ammazzarti spararti accoltellarti sgozzarti strangolarti massacrarti violentarti uccidervi ammazzarvi',
    adv: 'un una uno proprio davvero solo gran grandissimo grandissima vero vera emerito emerita povero povera brutto brutta pezzo di',
    intensifier: 'fottuto fottuta fottutissimo fottutissima',
    bad: 'inutile inutili patetico patetica ridicolo ridicola schifoso schifosa brutto brutta grasso grassa idiota stupido stupida nullità nessuno fallito fallita perdente deficiente incapace disgustoso disgustosa merda spazzatura feccia ritardato ritardata',
    badcall: 'idiota stupido stupida fallito perdente deficiente cretino scemo',
    group: 'ebrei musulmani arabi neri negri gay froci immigrati profughi stranieri donne zingari rom migranti cristiani cinesi terroni',
    vermin: 'feccia parassiti ratti scarafaggi animali bestie selvaggi scimmie maiali porci cani malattia cancro peste subumani spazzatura',
    killed: 'morire sterminati gasati uccisi ammazzati impiccati bruciati eliminati fucilati'
  },
  rules: {
    threat: [
      '@ti @aux*3 @harm',
      '@ti @aux*3 faccio|farò|faro fuori',
      '@ti @aux*3 spacco|spaccherò|rompo|romperò la|il|le faccia|testa|gambe|ossa|muso|culo',
      'voglio|vado|devo|sto|posso|potrei|vengo|andrò @aux*2 a? per? @harmti'
    ],
    menace: [
      'sei|siete un? uomo? morto|morta|morti',
      'morirai|morirete',
      'la pagherai|pagherete',
      'so dove abiti|vivi',
      'te ne pentirai',
      'guardati le spalle'
    ],
    deathWish: [
      '^ crepa|crepate|muori|morite',
      'vai|va|andate a morire|crepare',
      'ammazzati|ammazzatevi|impiccati|suicidati',
      'spero che tu? muoia|crepi|muoiate|crepiate',
      'dovresti morire|ammazzarti|suicidarti'
    ],
    selfHarm: [
      'voglio|vorrei morire',
      'mi voglio uccidere|ammazzare|suicidare',
      'voglio uccidermi|ammazzarmi|suicidarmi',
      'farla finita',
      'togliermi la vita',
      'non voglio più vivere'
    ],
    insult: [
      'sei|siete @adv*4 $flagged|@bad',
      'non vali niente|nulla',
      'nessuno ti ama|vuole|sopporta',
      'tua madre|sorella è @adv*3 $flagged|@bad',
      'brutto|brutta|sporco|sporca $flagged|@badcall'
    ],
    dismiss: [
      'stai|state zitto|zitta|zitti|zitte',
      'chiudi|chiudete la|il bocca|becco',
      'taci',
      'vaffanculo|fanculo',
      'va|vai|andate a cagare|fanculo',
      'va|vai|andate a fare in culo',
      'fottiti|fottetevi',
      'levati|levatevi dai coglioni|piedi'
    ],
    hate: [
      '@group sono tutti? *1 @vermin',
      'odio gli|i|le @group',
      'sporchi|sporche|maledetti @group'
    ],
    hateViolent: [
      '@group dovrebbero|devono|meritano di? essere? @killed',
      'morte agli|ai|alle @group',
      'uccidere|sterminare|gasare tutti gli|i|le @group'
    ]
  },
  topics: {
    Finance: 'borsa:0.5 mercato_azionario:0.8 azioni:0.4 azionist* investitor* investiment* dividend* portafoglio:0.3 banca:0.4 banche:0.5 bancari* prestit*:0.4 mutuo:0.6 mutui:0.6 tasso_di_interesse:0.7 tassi_di_interesse:0.7 inflazione:0.6 economia:0.4 economic*:0.4 finanz* ftse_mib:0.8 piazza_affari:0.8 bitcoin* cripto* ricavi:0.5 fatturato:0.6 tasse:0.4 imposte:0.5 debito*:0.5 bilancio:0.3 recessione:0.7 valuta*:0.4 dollari:0.3 spread:0.4 titoli:0.3',
    Health: 'salute:0.6 medico:0.6 medici:0.6 dottore*:0.5 infermier* ospedal* clinic* paziente:0.5 pazienti:0.5 antibiotic*:0.8 prescritt* prescrizione:0.6 farmac* medicin* malatti*:0.7 sintom*:0.7 diagnos*:0.7 terapi*:0.5 chirurg* vaccin*:0.7 virus:0.4 infezion*:0.7 cancro:0.6 tumore*:0.7 diabete:0.7 pandemia:0.6 covid*:0.7 influenza:0.4 febbre:0.5 dolore:0.3 salute_mentale:0.7 depressione:0.4',
    'Religion & Belief': 'chiesa:0.7 chiese:0.7 dio:0.5 religi*:0.8 fede:0.4 pregare:0.6 preghiera*:0.6 bibbia:0.8 corano:0.8 torah:0.8 moschea:0.8 moschee:0.8 sinagoga:0.8 tempio:0.5 sacerdote*:0.7 prete:0.7 preti:0.7 papa:0.4 vescov*:0.6 imam:0.8 rabbino:0.8 cristian*:0.7 gesù:0.7 cristo:0.6 musulman*:0.7 islam*:0.8 ebraic*:0.6 ebraismo:0.8 indù:0.7 buddis*:0.8 ateo:0.7 atea:0.7 ateismo:0.8 spiritual*:0.5 culto:0.4 messa:0.5 peccat*:0.5 cattolic*:0.7 protestant*:0.7 allah:0.8 cattedrale:0.7 cappella:0.5 ramadan:0.7 madonna:0.4',
    'Illicit Drugs': 'cocaina:0.8 eroina:0.5 metanfetamina:0.8 crack:0.4 fentanyl:0.8 oppioid*:0.6 cannabis:0.6 marijuana:0.7 hashish:0.7 spinello:0.6 spinelli:0.6 ecstasy:0.5 mdma:0.8 lsd:0.8 overdose:0.7 spacciator*:0.7 spaccio:0.7 narcotraffic*:0.8 stupefacent*:0.8 droga:0.6 droghe:0.6 tossicodipendent*:0.7',
    'War & Conflict': 'guerra:0.7 guerre:0.7 esercit*:0.6 truppe:0.7 soldat*:0.7 militar*:0.6 invasione:0.7 attacco_aereo:0.8 raid_aereo:0.8 bombardament*:0.6 missil*:0.7 artiglieria:0.8 battaglia:0.6 cessate_il_fuoco:0.8 combattiment*:0.6 conflitt*:0.4 ribell*:0.5 miliz*:0.7 nato:0.6 genocidio:0.7',
    Politics: 'politic*:0.8 elezion*:0.8 elettoral*:0.7 voto:0.5 votare:0.5 elettor*:0.7 governo:0.6 governi:0.6 parlament*:0.8 senato:0.7 senator*:0.8 deputat*:0.7 president*:0.5 presidente_del_consiglio:0.8 premier:0.6 ministr*:0.5 partito:0.3 partiti:0.3 referendum:0.8 candidat*:0.5 sindaco:0.5 opposizione:0.3 diplomatic*:0.5 sanzion*:0.3 legislativ*:0.5',
    Legal: 'tribunale*:0.7 corte:0.4 processo:0.3 giudice:0.5 giudici:0.5 avvocat*:0.7 denuncia*:0.5 querela*:0.7 verdetto:0.7 sentenza*:0.6 giuria:0.6 imputat*:0.7 pubblico_ministero:0.8 procura:0.6 condannat*:0.6 appello:0.3 contratt*:0.4 legale:0.5 legali:0.5 illegal*:0.5 legge:0.5 leggi:0.4 contenzios*:0.8 diritto_d_autore:0.6 brevett*:0.5 testimon*:0.4 reato:0.6 reati:0.6',
    'Firearms & Weapons': 'arma:0.6 armi:0.6 arma_da_fuoco:0.9 armi_da_fuoco:0.9 pistola:0.8 pistole:0.8 fucil*:0.8 revolver:0.8 munizion*:0.8 proiettil*:0.6 coltell*:0.4 pugnal*:0.6 granata:0.6 granate:0.6 esplosiv*:0.6 bomba:0.5 bombe:0.5 cecchin*:0.7 mitragliatric*:0.8 kalashnikov:0.8',
    'Public Safety': 'polizia:0.6 poliziott*:0.6 carabinieri:0.6 vigili_del_fuoco:0.7 pompier*:0.7 emergenz*:0.5 evacua*:0.7 ambulanz*:0.6 soccors*:0.5 terremoto:0.7 sisma:0.7 alluvion*:0.6 inondazion*:0.6 incendi*:0.5 uragano:0.7 tempesta:0.3 crimine:0.5 crimini:0.5 criminal*:0.4 arrestat*:0.6 arresto:0.5 rapina*:0.6 furto:0.5 furti:0.5 aggression*:0.4 sparatoria:0.5 terroris*:0.5 attentat*:0.6 esplosione:0.5 incidente*:0.4 sicurezza:0.3 allerta:0.3 scontri:0.4 coprifuoco:0.6 scompars*:0.4',
    'Death Harm & Tragedy': 'morte:0.6 morti:0.5 morto:0.5 morta:0.5 morì:0.6 deceduto*:0.7 decesso:0.7 morire:0.4 uccis*:0.6 mortal*:0.5 funeral*:0.7 lutto:0.6 tragedia:0.7 tragic*:0.6 vittim*:0.5 suicid*:0.8 omicidio:0.6 cadavere:0.7 strage:0.7 massacro:0.7 catastrofe:0.5 annegat*:0.6 ferit*:0.4 cimitero:0.5 bara:0.6',
    Violent: 'uccidere:0.3 omicidio:0.5 accoltellat*:0.6 violenz*:0.5 violent*:0.4 pestaggio:0.5 picchiat*:0.4 massacro:0.6 tortur*:0.6 sanguinos*:0.4 brutal*:0.4 sgozzat*:0.7 strangolat*:0.6',
    Sexual: 'nuda:0.3 nudi:0.3 erotic*:0.5 sessual*:0.5 sexy:0.4 prostitu*:0.6'
  }
}
