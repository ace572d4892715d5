/** Portuguese (Brazil and Portugal): our profane words (cuss/pt and cuss/pt-pt add theirs), phrase rules and topic words. */
import type { LanguageData } from './types.js'

export const pt: LanguageData = {
  words: {
    general: 'merda merdas porra:1 caralho* foda:1 fodase foda_se fodido* fodida* foder* fuder* fudido* fudida* cacete:1 bosta:1 cu:1 puta_que_pariu puta_merda cagar:1 bunda:1',
    mild: 'caramba:0 poxa:0 putz:0 raios:0 diabos:0 droga_de:0',
    insult: 'filho_da_puta filha_da_puta filhos_da_puta fdp babaca* otário* otária* arrombado* arrombada* cuzão* desgraçado* desgraçada* canalha*:1 escroto*:1 vagabundo*:1 corno:1 cornos:1 safado*:1 cabrão* cabrões merdoso*',
    insultMild: 'idiota* imbecil* imbecis estúpido* estúpida* burro:0 burra:0 cretino* cretina* retardado*:1 retardada*:1 mongoloide* débil_mental panaca* tonto:1 tonta:1 trouxa:1 palerma*:1',
    sexInsult: 'puta putas vadia vadias vagabunda* biscate* quenga* galdéria*',
    slur: 'viado* sapatão* traveco* boiola* baitola* paneleiro* maricas:1',
    sexual: 'buceta* boceta* xoxota* xota* piroca pirocas punheta* boquete* siririca* tesão*:1 cona:1 conas:1',
    sexualMild: 'sexo:1 pénis:1 pênis:1 vagina:1 porno*:2 pornô:2 pornograf*:2 orgasmo*:1 masturb*:1',
    rape: 'estupro* estuprad* estuprador* violação_sexual'
  },
  ordinary: 'frango besta cachorra desgraça rapariga raparigas mané boco grelo grelos macaca bagos broche broches pica_pau negro negra negros negras burro_de_carga ass cágado cum fanal janal panal ranal tanal zanal fu piranha piranhas pica picas rapé rabão toba nig negrões bicha bichas',
  idioms: 'morto|morta|mortos|mortas_de_cansaço|sono|fome|sede|frio|calor|medo|rir|tédio|vergonha|saudade|saudades|inveja|ciúmes',
  sets: {
    eu: 'vou vamos eu vai irei',
    aux: 'vou vamos vai eu juro que ainda hoje amanhã agora mesmo sério te',
    harm: 'matar mato matarei mataria esfaquear esfaqueio furar furo bater bato espancar espanco arrebentar arrebento estrangular estrangulo enforcar enforco estuprar estupro afogar afogo degolar degolo destruir destruo',
    voce: 'você voce vc tu',
    are: 'é és eh e',
    adv: 'um uma muito tão tao grande completo completa pedaço de maior puta baita verdadeiro verdadeira só',
    intensifier: 'puta porra caralho',
    bad: 'inútil lixo escória idiota estúpido estúpida imbecil patético patética nojento nojenta feio feia gordo gorda horrível ninguém desprezível ridículo ridícula merda burro burra incompetente fracassado fracassada perdedor perdedora retardado retardada otário',
    badcall: 'idiota imbecil estúpido estúpida burro burra otário otária retardado fracassado perdedor inútil babaca',
    group: 'judeus muçulmanos árabes negros pretos brancos gays viados imigrantes refugiados estrangeiros mulheres ciganos migrantes cristãos chineses nordestinos',
    vermin: 'escória lixo parasitas ratos baratas animais praga selvagens macacos porcos cães cachorros doença câncer cancro',
    killed: 'morrer exterminados gaseados mortos assassinados enforcados queimados eliminados fuzilados'
  },
  rules: {
    threat: [
      '@eu @aux*3 te|lhe|vos @harm',
      'vou|vamos|irei @aux*2 matar|esfaquear|espancar|estrangular|enforcar|estuprar|queimar você|vocês|voce|voces|te|tu',
      'vou|vamos @aux*2 matá|esfaqueá|espancá|estrangulá|enforcá|queimá lo|la|los|las',
      'te|lhe dou|darei|meto um tiro|murro|soco|facada|bala',
      'vou|vamos @aux*2 acabar com você|vocês|voce|tua'
    ],
    menace: [
      '@voce vai|vais|vão|vao|está|estás @aux*2 morrer|morto|morta|pagar|sofrer|arrepender',
      'sei onde @voce mora|moras|vive|vives',
      '@voce é|és um? homem? morto|morta',
      'vai se arrepender'
    ],
    deathWish: [
      '^ morre|morra|morram',
      'vai|vá|va morrer',
      'vai|vá|va se matar|enforcar',
      '^ se mata',
      '^ mata te',
      'espero que @voce? morra|morras|morram',
      '@voce deveria|devia|devias morrer'
    ],
    selfHarm: [
      'vou|quero|devo|penso me matar|suicidar|enforcar',
      'vou|quero matar|suicidar me',
      'quero|queria morrer',
      'não|nao quero mais viver',
      'não|nao quero viver mais',
      'tirar a? minha própria? vida',
      'acabar com a? minha vida'
    ],
    insult: [
      '@voce @are @adv*4 $flagged|@bad',
      'vocês|voces são|sao @adv*4 $flagged|@bad',
      'não|nao vale|vales nada',
      'ninguém|ninguem gosta de @voce|ti',
      'sua|tua mãe é @adv*3 $flagged|@bad',
      'seu|sua|teu|tua $flagged|@badcall'
    ],
    dismiss: [
      'cala|cale a|essa boca',
      'cala|cale se',
      'vai|vá|va se foder|fuder|ferrar|lixar',
      'vai|vá|va tomar no cu',
      'vai|vá|va à|a merda',
      'some daqui'
    ],
    hate: [
      '@group são|sao todos? *1 @vermin',
      'odeio os? @group',
      'malditos|imundos|nojentos @group'
    ],
    hateViolent: [
      '@group deveriam|devem|merecem ser? @killed',
      'morte aos? @group',
      'matar|exterminar todos? os @group'
    ]
  },
  topics: {
    Finance: 'bolsa:0.4 bolsa_de_valores:0.8 mercado_de_ações:0.8 ações:0.4 acionista* investidor*:0.6 investimento*:0.5 dividendo* banco:0.4 bancos:0.5 bancári* empréstimo*:0.5 crédito*:0.4 hipoteca* financiamento*:0.5 taxa_de_juros:0.7 juros:0.5 inflação:0.6 economia:0.4 económic*:0.4 econômic*:0.4 finanças:0.7 financeir* ibovespa:0.8 bitcoin* cripto* lucro*:0.4 faturamento:0.6 imposto*:0.4 dívida*:0.5 orçamento*:0.3 recessão:0.7 moeda*:0.3 dólar*:0.3 euros:0.3 wall_street:0.7 cotaç*:0.6',
    Health: 'saúde:0.6 médico*:0.6 médica*:0.6 doutor*:0.4 enfermeir*:0.6 hospital*:0.6 clínica*:0.6 paciente*:0.5 antibiótico*:0.8 receitou:0.6 prescrev*:0.6 prescri*:0.6 medicament*:0.7 remédio*:0.5 medicina*:0.6 doença*:0.7 sintoma*:0.7 diagnóstic*:0.7 terapia*:0.5 cirurgi*:0.7 vacina*:0.7 vírus:0.4 infecç*:0.7 infeç*:0.7 câncer:0.6 cancro:0.6 tumor*:0.7 diabetes:0.7 pandemia*:0.6 covid*:0.7 gripe:0.6 febre:0.5 farmácia*:0.6 saúde_mental:0.7 depressão:0.4',
    'Religion & Belief': 'igreja*:0.7 deus:0.5 religi*:0.8 fé:0.4 rezar:0.6 oração:0.5 orações:0.5 bíblia*:0.8 alcorão:0.8 torá:0.8 mesquita*:0.8 sinagoga*:0.8 templo*:0.5 padre:0.5 padres:0.5 sacerdote*:0.7 papa:0.4 bispo*:0.6 rabino*:0.8 cristã*:0.7 cristão*:0.7 cristianismo:0.8 jesus:0.7 cristo:0.6 muçulman*:0.7 islã:0.8 islão:0.8 islam*:0.8 judeu:0.5 judia:0.5 judaísmo:0.8 hindu*:0.7 budis*:0.8 ateu:0.7 ateia:0.7 ateísmo:0.8 espiritual*:0.5 culto:0.4 missa:0.7 pecado*:0.5 católic*:0.7 protestante*:0.7 evangélic*:0.6 catedral*:0.7 capela*:0.6',
    'Illicit Drugs': 'cocaína:0.8 heroína:0.5 metanfetamina:0.8 crack:0.5 fentanil:0.8 opioide*:0.6 cannabis:0.6 maconha:0.7 haxixe:0.7 ecstasy:0.5 mdma:0.8 lsd:0.8 overdose:0.7 traficante*:0.7 tráfico_de_drogas:0.8 narcotráfico:0.8 entorpecente*:0.8 drogas:0.6 cartel*:0.5 viciado*:0.5',
    'War & Conflict': 'guerra*:0.7 exército*:0.6 tropa*:0.6 soldado*:0.7 militar*:0.6 invasão:0.7 invadi*:0.5 ataque_aéreo:0.8 bombardeio*:0.6 bombardeamento*:0.6 míssil:0.7 mísseis:0.7 artilharia:0.8 batalha*:0.6 cessar_fogo:0.8 combate*:0.5 conflito*:0.4 rebelde*:0.5 insurgente*:0.7 milícia*:0.7 otan:0.6 nato:0.6 genocídio:0.7 guerrilha*:0.7',
    Politics: 'polític*:0.8 eleiç*:0.8 eleitora*:0.7 eleitor*:0.7 voto:0.5 votos:0.5 votar:0.5 votação:0.5 governo*:0.6 parlamento*:0.8 congresso*:0.7 senado*:0.7 senador*:0.8 deputad*:0.7 president*:0.5 primeiro_ministro:0.8 ministr*:0.5 partidos:0.3 referendo:0.8 candidat*:0.5 prefeito*:0.5 oposição:0.3 diplomátic*:0.5 sanções:0.3 legislaç*:0.5',
    Legal: 'tribunal*:0.7 tribunais:0.7 juiz:0.5 juíza:0.5 juízes:0.5 advogad*:0.7 processou:0.7 processad*:0.6 ação_judicial:0.8 julgamento*:0.6 veredito*:0.7 júri:0.6 promotor*:0.6 ministério_público:0.8 réu:0.7 acusad*:0.5 condenad*:0.6 contrato*:0.4 legal*:0.6 ilegal*:0.5 lei:0.5 leis:0.5 litígio*:0.8 direitos_autorais:0.6 direito_de_autor:0.6 patente*:0.5 testemunh*:0.4 sentença*:0.5',
    'Firearms & Weapons': 'arma:0.6 armas:0.6 arma_de_fogo:0.9 armas_de_fogo:0.9 pistola*:0.8 revólver*:0.8 rifle*:0.8 fuzil:0.8 fuzis:0.8 espingarda*:0.8 munição:0.8 munições:0.8 balas:0.4 faca:0.4 facas:0.4 punhal:0.6 facão:0.5 granada*:0.7 explosivo*:0.6 bomba*:0.5 franco_atirador:0.7 metralhadora*:0.8',
    'Public Safety': 'polícia*:0.6 policia*:0.6 policial*:0.6 bombeiro*:0.7 emergência*:0.5 evacua*:0.7 ambulância*:0.6 socorro:0.5 terremoto*:0.7 sismo:0.7 enchente*:0.6 inundaç*:0.6 incêndio*:0.5 furacão:0.7 tempestade*:0.3 criminos*:0.5 criminal*:0.4 preso:0.4 presos:0.4 assalto*:0.5 roubo*:0.5 furto*:0.5 tiroteio*:0.5 terroris*:0.5 atentado*:0.6 explosão:0.5 acidente*:0.4 segurança:0.3 tumulto*:0.5 toque_de_recolher:0.6 desaparecid*:0.4',
    'Death Harm & Tragedy': 'morte*:0.6 morto*:0.5 morta*:0.5 morreu:0.6 morreram:0.6 falec*:0.7 morrer:0.4 assassinad*:0.6 mortal*:0.5 funeral*:0.7 enterro*:0.6 velório*:0.7 tragédia*:0.7 trágic*:0.6 vítima*:0.5 luto:0.6 suicíd*:0.8 suicid*:0.8 assassinato*:0.6 homicídio*:0.6 cadáver*:0.7 massacre*:0.7 chacina*:0.7 catástrofe*:0.5 afogad*:0.6 ferido*:0.4 cemitério*:0.5 caixão:0.6',
    Violent: 'matar:0.3 assassin*:0.5 esfaque*:0.6 violência*:0.5 violent*:0.4 espancad*:0.5 agressão:0.4 agredid*:0.4 massacre*:0.6 tortura*:0.6 sangrent*:0.4 brutal*:0.4 degola*:0.7 estrangul*:0.6',
    Sexual: 'nua:0.3 nuas:0.3 pelad*:0.3 erótic*:0.5 sexual*:0.5 sexy:0.4 prostitu*:0.6 bordel:0.6'
  }
}
