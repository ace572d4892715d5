/**
 * Hand-written core sentiment words per language, on VADER's scale (-4 to 4). They come before the nlp.js
 * lexicons, which are broad but noisy (French "mauvais" 0, German "schrecklich" -0.02); inflected forms are
 * found through the language's stemmer. Written as "word:valence" lists; phrases use "_" for a space. German nouns
 * inside a sentence are read only as written (native.ts), so their plurals and genitives are listed.
 */
export const CORE_LEXICONS: Readonly<Record<string, string>> = {
  fr: `
bon:1.9 bonne:1.9 bien:1.6 meilleur:2.2 meilleure:2.2 excellent:3.2 excellente:3.2 super:2.8 génial:3.1 géniale:3.1 parfait:3.2
parfaite:3.2 magnifique:3.2 merveilleux:3.2 merveilleuse:3.2 formidable:3 fantastique:3.2 extraordinaire:3 superbe:3 sublime:3.2
incroyable:2.6 exceptionnel:3 exceptionnelle:3 remarquable:2.6 impeccable:3 top:2.6 agréable:2.2 sympa:2 sympathique:2 gentil:2
gentille:2 aimable:2 chaleureux:2.2 chaleureuse:2.2 accueillant:2 accueillante:2 délicieux:3 délicieuse:3 savoureux:2.6 bravo:2.8
beau:2.2 belle:2.2 joli:2 jolie:2 propre:1.2 confortable:1.8 rapide:1 efficace:2 utile:1.6 pratique:1.4 facile:1.5 heureux:2.8
heureuse:2.8 content:2.2 contente:2.2 satisfait:2.2 satisfaite:2.2 ravi:2.8 ravie:2.8 recommande:2 recommander:2 aime:2.2 aimé:2.2
adore:3 adoré:3 amour:2.8 plaisir:2.4 bonheur:3 merci:1.8 qualité:1.2 intéressant:1.8 intéressante:1.8 amusant:2 drôle:1.8
réussi:2.2 réussie:2.2 impressionnant:2.4 correct:1 correcte:1 convenable:1 idéal:2.6 idéale:2.6 charmant:2.4 charmante:2.4
exquis:3 top_qualité:2.6 mauvais:-2.4 mauvaise:-2.4 mal:-1.8 pire:-3 nul:-2.8 nulle:-2.8 horrible:-3.2 affreux:-3 affreuse:-3
terrible:-3 épouvantable:-3.2 catastrophique:-3.2 catastrophe:-3 décevant:-2.4 décevante:-2.4 déçu:-2.4 déçue:-2.4 déception:-2.4
médiocre:-2.2 lamentable:-2.8 minable:-2.6 désagréable:-2.4 sale:-2 saleté:-2.2 lent:-1.2 lente:-1.2 cher:-0.8 chère:-0.8
trop_cher:-1.6 froid:-0.8 froide:-0.8 ennuyeux:-2 ennuyeuse:-2 ennui:-1.8 triste:-2.2 malheureux:-2.4 malheureuse:-2.4 fâché:-2.2
furieux:-2.8 furieuse:-2.8 énervé:-2.2 colère:-2.4 déteste:-3 détesté:-3 haine:-3 honte:-2.4 honteux:-2.6 arnaque:-3 escroquerie:-3
inutile:-2 cassé:-1.8 cassée:-1.8 panne:-1.8 problème:-1.6 défaut:-1.6 bruyant:-1.6 bruyante:-1.6 impoli:-2.4 impolie:-2.4
désastre:-3 inacceptable:-2.8 insupportable:-2.8 pénible:-2.2 stupide:-2.4 ridicule:-2.2 dégoûtant:-3 dégueulasse:-3.2 raté:-2.2
ratée:-2.2 regrette:-2 éviter:-1.6 évitez:-2 plainte:-1.6 douleur:-2 peur:-2 mort:-2.4 perte:-1.8 gaspillage:-2.2 arnaqué:-3
incompétent:-2.6 froidement:-1 grossier:-2.4 grossière:-2.4 lamentablement:-2.6 bof:-1.2 moyen:-0.6 moyenne:-0.6
`,
  de: `
gut:1.9 gute:1.9 guter:1.9 gutes:1.9 guten:1.9 besser:2 beste:2.6 besten:2.6 toll:2.8 tolle:2.8 super:2.8 prima:2.6 klasse:2.8
spitze:3 großartig:3.1 hervorragend:3.2 ausgezeichnet:3.2 exzellent:3.2 perfekt:3.2 wunderbar:3.2 wundervoll:3.2 fantastisch:3.2
genial:3 herrlich:3 traumhaft:3 schön:2.2 schöne:2.2 hübsch:2 lecker:2.6 köstlich:3 freundlich:2.2 nett:1.8 angenehm:2
gemütlich:2 sauber:1.4 bequem:1.6 schnell:1 zuverlässig:2 empfehlenswert:2.6 empfehlen:2 empfehle:2 zufrieden:2.2 glücklich:2.8
froh:2.2 begeistert:2.8 liebe:2.4 lieben:2.4 liebt:2.4 mag:1.8 mögen:1.8 gefällt:2 gefallen:2 gefiel:2 danke:1.8 dank:1.4
freude:2.6 spaß:2.4 lustig:1.8 interessant:1.8 beeindruckend:2.6 hilfsbereit:2.4 kompetent:2 preiswert:1.6 günstig:1.2
empfehlung:2 top:2.6 okay:0.8 ok:0.8 schlecht:-2.4 schlechte:-2.4 schlechter:-2.4 schlechtes:-2.4 schlechteste:-3 schrecklich:-3
furchtbar:-3 fürchterlich:-3 grauenhaft:-3.2 grausam:-3 katastrophal:-3.2 katastrophe:-3 miserabel:-3 mies:-2.4 mangelhaft:-2.4
enttäuschend:-2.4 enttäuscht:-2.4 enttäuschung:-2.4 ärgerlich:-2.2 ärger:-2 wütend:-2.8 sauer:-2 traurig:-2.2 hässlich:-2.2
schmutzig:-2 dreckig:-2.4 eklig:-2.8 ekelhaft:-3 langweilig:-2 langsam:-1.2 teuer:-0.8 überteuert:-2 unfreundlich:-2.4
unhöflich:-2.4 laut:-1 kaputt:-2 defekt:-2 problem:-1.6 probleme:-1.6 fehler:-1.6 mangel:-1.6 hasse:-3 hassen:-3 hass:-3
nervig:-2.2 nervt:-2.2 lästig:-2 unbrauchbar:-2.6 nutzlos:-2.4 unmöglich:-2 inakzeptabel:-2.8 frechheit:-2.8 betrug:-3
abzocke:-3 schade:-1.8 leider:-1.2 schlimm:-2.6 übel:-2.4 dumm:-2.2 lächerlich:-2.2 zumutung:-2.8 unzufrieden:-2.4
gefährlich:-2 schmerz:-2 angst:-2 müll:-2.4 mist:-2.2 scheiße:-3 beschissen:-3 kalt:-0.8 umständlich:-1.6
freuden:2.6 späße:2.4 spaßes:2.4 dankes:1.4 empfehlungen:2 problemen:-1.6 fehlern:-1.6 mängeln:-1.6 katastrophen:-3
enttäuschungen:-2.4 zumutungen:-2.8 schmerzen:-2 ängste:-2 ängsten:-2 frechheiten:-2.8 betrugs:-3 hasses:-3 ärgers:-2
`,
  es: `
bueno:1.9 buena:1.9 buenos:1.9 buenas:1.9 bien:1.6 mejor:2.2 excelente:3.2 genial:3 estupendo:3 estupenda:3 perfecto:3.2
perfecta:3.2 maravilloso:3.2 maravillosa:3.2 fantástico:3.2 fantástica:3.2 increíble:2.8 espectacular:3 magnífico:3.2
magnífica:3.2 extraordinario:3 excepcional:3 impecable:3 precioso:2.8 preciosa:2.8 bonito:2.2 bonita:2.2 hermoso:2.6 hermosa:2.6
lindo:2.2 linda:2.2 agradable:2.2 amable:2.2 simpático:2 simpática:2 atento:1.8 atenta:1.8 delicioso:3 deliciosa:3 rico:1.8
rica:1.8 sabroso:2.4 sabrosa:2.4 limpio:1.4 limpia:1.4 cómodo:1.8 cómoda:1.8 rápido:1 rápida:1 eficiente:2 útil:1.6 fácil:1.5
feliz:2.8 contento:2.2 contenta:2.2 satisfecho:2.2 satisfecha:2.2 encantado:2.8 encantada:2.8 encanta:2.8 encantó:2.8
gusta:1.9 gustó:1.9 gustan:1.9 amo:2.8 amor:2.8 recomiendo:2.2 recomendable:2.4 recomendar:2 gracias:1.8 divertido:2
divertida:2 interesante:1.8 impresionante:2.6 ideal:2.4 correcto:1 correcta:1 calidad:1.2 placer:2.4 alegría:2.6 barato:0.8
malo:-2.4 mala:-2.4 malos:-2.4 malas:-2.4 mal:-2 peor:-3 pésimo:-3.2 pésima:-3.2 horrible:-3.2 terrible:-3 fatal:-3 espantoso:-3
espantosa:-3 desastre:-3 desastroso:-3 desastrosa:-3 decepcionante:-2.4 decepcionado:-2.4 decepcionada:-2.4 decepción:-2.4
mediocre:-2.2 lamentable:-2.8 desagradable:-2.4 sucio:-2 sucia:-2 suciedad:-2.2 lento:-1.2 lenta:-1.2 caro:-0.8 cara:-0.4
carísimo:-2 frío:-0.8 fría:-0.8 aburrido:-2 aburrida:-2 triste:-2.2 enfadado:-2.4 enojado:-2.4 furioso:-2.8 odio:-3 odia:-3
odié:-3 asco:-3 asqueroso:-3 asquerosa:-3 vergüenza:-2.4 estafa:-3 timo:-3 inútil:-2.2 roto:-1.8 rota:-1.8 problema:-1.6
problemas:-1.6 defecto:-1.6 ruidoso:-1.6 ruidosa:-1.6 maleducado:-2.4 grosero:-2.4 grosera:-2.4 inaceptable:-2.8
insoportable:-2.8 estúpido:-2.4 ridículo:-2.2 basura:-2.6 porquería:-2.8 queja:-1.6 dolor:-2 miedo:-2 nefasto:-3 regular:-0.6
`,
  it: `
buono:1.9 buona:1.9 buoni:1.9 buone:1.9 bene:1.6 meglio:2 migliore:2.2 ottimo:3 ottima:3 ottimi:3 eccellente:3.2 perfetto:3.2
perfetta:3.2 fantastico:3.2 fantastica:3.2 meraviglioso:3.2 meravigliosa:3.2 magnifico:3.2 magnifica:3.2 splendido:3
splendida:3 stupendo:3.2 stupenda:3.2 straordinario:3 eccezionale:3 incredibile:2.6 impeccabile:3 bello:2.2 bella:2.2 belli:2.2
belle:2.2 bellissimo:3 bellissima:3 carino:2 carina:2 piacevole:2.2 gentile:2.2 gentili:2.2 simpatico:2 simpatica:2
cordiale:2 accogliente:2.2 delizioso:3 deliziosa:3 gustoso:2.4 gustosa:2.4 squisito:3 pulito:1.4 pulita:1.4 comodo:1.8
comoda:1.8 veloce:1 efficiente:2 utile:1.6 facile:1.5 felice:2.8 contento:2.2 contenta:2.2 soddisfatto:2.2 soddisfatta:2.2
adoro:3 amo:2.8 amore:2.8 piace:1.9 piaciuto:1.9 piaciuta:1.9 piacere:2 consiglio:1.6 consigliato:2.2 consigliatissimo:3
raccomando:2 grazie:1.8 divertente:2 interessante:1.8 impressionante:2.4 ideale:2.4 top:2.6 qualità:1.2 brava:2 bravo:2 bravi:2
cattivo:-2.4 cattiva:-2.4 male:-2 peggio:-2.8 peggiore:-3 pessimo:-3.2 pessima:-3.2 orribile:-3.2 terribile:-3 schifo:-3.2
schifoso:-3.2 schifosa:-3.2 disastro:-3 disastroso:-3 deludente:-2.4 deluso:-2.4 delusa:-2.4 delusione:-2.4 mediocre:-2.2
scadente:-2.6 sgradevole:-2.4 sporco:-2 sporca:-2 sporcizia:-2.2 lento:-1.2 lenta:-1.2 caro:-0.8 costoso:-0.8 freddo:-0.8
fredda:-0.8 noioso:-2 noiosa:-2 triste:-2.2 arrabbiato:-2.4 arrabbiata:-2.4 furioso:-2.8 odio:-3 odiato:-3 vergogna:-2.6
truffa:-3 fregatura:-2.6 fregature:-2.6 inutile:-2.2 rotto:-1.8 rotta:-1.8 problema:-1.6 problemi:-1.6 difetto:-1.6 rumoroso:-1.6 rumorosa:-1.6
maleducato:-2.4 scortese:-2.4 inaccettabile:-2.8 insopportabile:-2.8 stupido:-2.4 ridicolo:-2.2 brutto:-2.2 brutta:-2.2
schifezza:-3 dolore:-2 paura:-2 sconsiglio:-2.4 sconsigliato:-2.4 lamentela:-1.6 immangiabile:-3
`,
  pt: `
bom:1.9 boa:1.9 bons:1.9 boas:1.9 bem:1.4 melhor:2.2 ótimo:3 ótima:3 excelente:3.2 perfeito:3.2 perfeita:3.2 maravilhoso:3.2
maravilhosa:3.2 fantástico:3.2 fantástica:3.2 incrível:2.8 espetacular:3 magnífico:3.2 magnífica:3.2 extraordinário:3
excepcional:3 impecável:3 lindo:2.4 linda:2.4 bonito:2.2 bonita:2.2 belo:2.2 bela:2.2 agradável:2.2 simpático:2 simpática:2
gentil:2.2 atencioso:2 atenciosa:2 delicioso:3 deliciosa:3 gostoso:2.4 gostosa:2.4 saboroso:2.4 saborosa:2.4 limpo:1.4
limpa:1.4 confortável:1.8 rápido:1 rápida:1 eficiente:2 útil:1.6 fácil:1.5 feliz:2.8 contente:2.2 satisfeito:2.2
satisfeita:2.2 encantado:2.8 encantada:2.8 adoro:3 adorei:3 amo:2.8 amei:2.8 amor:2.8 gosto:1.9 gostei:2 gosta:1.9
recomendo:2.2 recomendável:2.4 obrigado:1.8 obrigada:1.8 divertido:2 divertida:2 interessante:1.8 impressionante:2.6
ideal:2.4 correto:1 qualidade:1.2 prazer:2.4 alegria:2.6 legal:1.8 show:2.4 top:2.6 barato:0.8 mau:-2.4 má:-2.4 maus:-2.4
ruim:-2.4 ruins:-2.4 mal:-2 pior:-3 péssimo:-3.2 péssima:-3.2 horrível:-3.2 terrível:-3 horroroso:-3 horrorosa:-3 desastre:-3
desastroso:-3 decepcionante:-2.4 decepcionado:-2.4 decepcionada:-2.4 decepção:-2.4 medíocre:-2.2 lamentável:-2.8
desagradável:-2.4 sujo:-2 suja:-2 sujeira:-2.2 lento:-1.2 lenta:-1.2 caro:-0.8 cara:-0.4 frio:-0.8 fria:-0.8 chato:-2
chata:-2 triste:-2.2 irritado:-2.4 furioso:-2.8 odeio:-3 odiei:-3 nojo:-3 nojento:-3 nojenta:-3 vergonha:-2.4
golpe:-2.4 fraude:-3 inútil:-2.2 quebrado:-1.8 quebrada:-1.8 problema:-1.6 problemas:-1.6 defeito:-1.6 barulhento:-1.6
mal-educado:-2.4 grosseiro:-2.4 grosseira:-2.4 inaceitável:-2.8 insuportável:-2.8 estúpido:-2.4 ridículo:-2.2 lixo:-2.6
porcaria:-2.8 reclamação:-1.6 dor:-2 medo:-2 fraco:-1.6 fraca:-1.6 regular:-0.6
`,
  nl: `
goed:1.9 goede:1.9 beter:2 best:1.2 beste:2.4 geweldig:3.1 geweldige:3.1 uitstekend:3.2 uitstekende:3.2 prima:2.2 perfect:3.2
perfecte:3.2 fantastisch:3.2 fantastische:3.2 prachtig:3.2 prachtige:3.2 schitterend:3.2 fijn:2 fijne:2 leuk:2.2 leuke:2.2
mooi:2.2 mooie:2.2 heerlijk:3 heerlijke:3 lekker:2.4 lekkere:2.4 top:2.6 super:2.8 gaaf:2.4 tof:2.4 vriendelijk:2.2
vriendelijke:2.2 aardig:1.8 behulpzaam:2.2 gezellig:2.2 gezellige:2.2 schoon:1.4 comfortabel:1.8 snel:1 snelle:1 handig:1.6
makkelijk:1.5 gemakkelijk:1.5 betrouwbaar:2 aanrader:2.6 aanbevelen:2 aanraden:2 raad:0.8 tevreden:2.2 blij:2.6 gelukkig:2.6
enthousiast:2.4 dol:2 hou:1.8 houden:1.8 bedankt:1.8 dank:1.4 plezier:2.4 interessant:1.8 indrukwekkend:2.6 uniek:1.8
voortreffelijk:3.2 smakelijk:2.4 goedkoop:0.8 slecht:-2.4 slechte:-2.4 slechter:-2.6 slechtste:-3 vreselijk:-3 vreselijke:-3
verschrikkelijk:-3.2 verschrikkelijke:-3.2 afschuwelijk:-3.2 waardeloos:-3 waardeloze:-3 belabberd:-2.8 teleurstellend:-2.4
teleurgesteld:-2.4 teleurstelling:-2.4 matig:-1.4 middelmatig:-1.6 onaangenaam:-2.4 vies:-2.4 vieze:-2.4 smerig:-2.8
vuil:-2 traag:-1.2 trage:-1.2 langzaam:-1 duur:-0.8 dure:-0.8 koud:-0.8 koude:-0.8 saai:-2 saaie:-2 verdrietig:-2.2
boos:-2.4 kwaad:-2.4 woedend:-2.8 haat:-3 haten:-3 schande:-2.6 oplichting:-3 oplichters:-3 nutteloos:-2.2 kapot:-2
probleem:-1.6 problemen:-1.6 defect:-2 lawaai:-1.6 luidruchtig:-1.6 onbeleefd:-2.4 onvriendelijk:-2.4 onacceptabel:-2.8
ondraaglijk:-2.8 dom:-2.2 belachelijk:-2.2 rommel:-2.2 troep:-2.4 klacht:-1.6 pijn:-2 bang:-1.6 jammer:-1.8 helaas:-1.2
ramp:-3 rampzalig:-3.2 ellendig:-2.8 ergernis:-2.2 irritant:-2.2 onbruikbaar:-2.6 zonde:-1.8 afrader:-2.6 afraden:-2.4
`
}
