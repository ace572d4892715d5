/** Spanish: our profane words (cuss/es adds its own), phrase rules and topic words. */
import type { LanguageData } from './types.js'

export const es: LanguageData = {
  words: {
    general: 'mierda* joder jodido* jodida* jódete coño:1 carajo:1 hostia:1 hostias:1 cojones:1 cojón:1 puta_madre me_cago_en cagar*:1 pinche:1 chingar* chingada* chingado* chingue* verga:1 culo:1 culos:1 huevadas:1',
    mild: 'caramba:0 maldición:0 maldito:0 maldita:0 malditos:0 malditas:0 demonios:0 diablos:0 rayos:0 mecachis:0 ostras:0',
    insult: 'cabrón* cabrona* cabrones gilipollas* hijo_de_puta hija_de_puta hijos_de_puta hijo_de_perra hdp pendejo* pendeja* capullo*:1 mamón* mamona*:1 huevón*:1 boludo*:1 pelotudo* malparido* cabronazo* comemierda* lameculos* soplapollas* gilipichis bastardo* chupapollas*',
    insultMild: 'idiota* imbécil* imbecil* estúpido* estúpida* estupido* estupida* tonto:1 tonta:1 tontos:1 tontas:1 tarado*:1 cretino* cretina* retrasado*:1 retrasada*:1 mongólico* mongólica* subnormal*:1 pendejada:1',
    sexInsult: 'puta putas zorra:1 zorras:1 puto:1 putos:1 ramera* furcia* guarra*:1 golfa*:1',
    slur: 'maricón* marica* maricones mariconazo sudaca* negrata* tortillera* bollera*:1 sarasa*:1 mongolo*',
    sexual: 'polla:1 pollas:1 chocho:1 follar* follando follado* mamada:1 tetas:1 pajero*:1 pajearse chupármela chupamela',
    sexualMild: 'sexo:1 pezón:0 pezones:0 pene:1 vagina:1 vulva:1 semen:1 porno*:2 pornograf*:2 orgasmo*:1 masturb*:1',
    rape: 'violación* violador* violada:1 violadas:1 violarte violarla'
  },
  ordinary: 'besugo boniato borraja brizna brocha butifarra cantimplora cebollino cogollo cuchara leche leches mamey percebe puchero quebracho tordo yegua cola palo pico polvo popa raja pepa seno senos pisar vete hueco coger cachar chaqueta pistola heroína caliente nabo bolas bollo cacha calabazo calamidad cotorra coso mico pargo pito pija pijo mamar manchas repisas retazo traga trincar bruta comadres cuates lumbreras dondiego colón alcornoque corozo cogote guitarro gustarle agarraderas adufe andá ayotes bombín brisco cachimba coyoles estafiate filiberto morlaco sonajas sopladores cuca haciendo_el_amor tonga tocho sobo playo fu fanal panal pañal negro negra negros negras rape rapé corrida corridas orina chiche trío travesti travestí borrico gorrino mameluco cabestro cernícalo sanguijuela tarugo mendrugo mastuerzo fariseo fantoche ladilla pardillo calambuco abanto andorga barrabás morrongo paja pajas panocha gurriato',
  idioms: 'un|una_crack es|eres|era|fue|sería|son|sois_la_bomba_!en|bajo|debajo|dentro|detrás|cerca|que muerto|muerta|muertos|muertas_de_cansancio|sueño|hambre|sed|risa|miedo|frío|calor|ganas|aburrimiento|vergüenza|envidia|celos',
  sets: {
    te: 'te os',
    aux: 'voy vamos va vas a juro que de verdad ahora mismo mañana hoy yo lo le',
    harm: 'matar mato mataré mataria mataría apuñalar apuñalo disparar disparo reventar reviento degollar degüello ahorcar ahorco violar violo golpear golpeo destrozar destrozo ahogar ahogo estrangular estrangulo',
    harmte: 'matarte mataros matarlos matarla apuñalarte reventarte partirte romperte violarte quemarte dispararte degollarte ahorcarte ahogarte estrangularte destrozarte',
    are: 'eres sos sois',
    adv: 'un una muy tan tremendo tremenda puto puta pinche maldito maldita gran grandísimo más mas solo pedazo de simple menudo menuda',
    intensifier: 'puto puta pinche maldito maldita jodido jodida',
    bad: 'inútil basura escoria idiota estúpido estúpida imbécil patético patética asqueroso asquerosa feo fea gordo gorda horrible nadie despreciable ridículo ridícula mierda tonto tonta incompetente fracasado fracasada perdedor perdedora retrasado retrasada subnormal',
    badcall: 'idiota imbécil estúpido estúpida tonto tonta fracasado perdedor payaso inútil',
    group: 'judíos musulmanes árabes negros blancos gays maricones inmigrantes refugiados extranjeros mujeres gitanos moros sudacas migrantes cristianos chinos',
    vermin: 'escoria basura parásitos ratas cucarachas animales plaga alimañas salvajes simios monos cerdos perros enfermedad cáncer infrahumanos',
    killed: 'morir exterminados gaseados asesinados ahorcados quemados eliminados fusilados matados muertos'
  },
  rules: {
    threat: [
      '@te @aux*4 @harm',
      'voy|vamos @aux*2 a? @harmte',
      '@te @aux*4 dar|doy|daré|dare|meto|meter una paliza|golpiza|puñalada|tiro|balazo|bala',
      'te|os @aux*3 romper|partir|reventar la cara|cabeza|madre|crisma|boca'
    ],
    menace: [
      'vas|vais|van a morir|pagar|sufrir|arrepentirte|arrepentir',
      'estás|estas|estáis|estais muerto|muerta|muertos',
      'eres hombre muerto',
      'sé|se dónde|donde vives',
      'te vas a arrepentir',
      'cuídate|cuidate las espaldas'
    ],
    deathWish: [
      'muérete|muerete|muéranse|muéranse|muriete',
      'ojalá|ojala te|os mueras|murieras|revientes|muráis',
      'que te mueras',
      'vete|idos a morir',
      'mátate|matate|suicídate|suicidate|ahórcate|ahorcate',
      'deberías|deberias morirte|matarte|suicidarte'
    ],
    selfHarm: [
      'me quiero morir|matar|suicidar',
      'quiero morir|morirme|suicidarme|matarme',
      'me voy a matar|suicidar',
      'voy a suicidarme|matarme',
      'no quiero vivir',
      'quitarme la vida',
      'acabar con mi vida'
    ],
    insult: [
      '@are @adv*4 $flagged|@bad',
      'no vales nada',
      'nadie te quiere|soporta|aguanta',
      'tu madre|hermana es @adv*3 $flagged|@bad',
      'tú|vos @adv*2 $flagged|@badcall'
    ],
    dismiss: [
      'cállate|callate|cállense|callense|callaos',
      'cierra|cierre|cerrá la|el boca|pico|hocico',
      'vete|váyase|vayase|vayanse|idos a la mierda|verga|chingada',
      'vete|váyase|idos al carajo|diablo',
      'que te jodan|den',
      'jódete|jodete',
      'chinga tu madre',
      'lárgate|largate|piérdete|pierdete'
    ],
    hate: [
      '@group son @adv*2 @vermin',
      'odio a los? @group',
      'malditos|putos|asquerosos @group'
    ],
    hateViolent: [
      '@group deberían|deberian|deben|merecen ser? @killed',
      'muerte a los? @group',
      'matar|exterminar|gasear a todos? los @group'
    ]
  },
  topics: {
    Finance: 'bolsa:0.4 bolsa_de_valores:0.8 mercado_bursátil:0.8 bursátil*:0.7 acciones:0.4 accionista* inversor*:0.6 inversionista* inversión:0.5 inversiones:0.5 dividendo* banco:0.4 bancos:0.5 bancari* préstamo*:0.5 crédito*:0.4 hipoteca* tipos_de_interés:0.7 tasa_de_interés:0.7 inflación:0.6 economía:0.4 económic*:0.4 finanzas:0.7 financier* ibex:0.8 bitcoin* cripto* ganancias:0.4 ingresos:0.4 impuesto*:0.4 deuda*:0.5 presupuesto*:0.3 recesión* divisa*:0.5 dólar*:0.3 euros:0.3 wall_street:0.7 cotización*:0.6 inversores:0.6',
    Health: 'salud:0.6 médico*:0.6 doctor*:0.5 enfermer*:0.6 hospital*:0.6 clínica*:0.6 paciente*:0.5 antibiótico*:0.8 receta:0.3 recetó:0.6 recetado*:0.6 medicament*:0.7 medicina*:0.6 enfermedad*:0.7 síntoma*:0.7 diagnóstic*:0.7 terapia*:0.5 cirugía*:0.7 cirujano* vacuna*:0.7 virus:0.4 infección*:0.7 cáncer:0.7 tumor*:0.7 diabetes:0.7 pandemia*:0.6 covid*:0.7 gripe:0.6 fiebre:0.5 farmacia*:0.6 dolor:0.3 salud_mental:0.7 depresión:0.4',
    'Religion & Belief': 'iglesia*:0.7 dios:0.5 religi*:0.8 fe:0.4 rezar:0.6 oración:0.5 oraciones:0.5 biblia*:0.8 corán:0.8 torá:0.8 mezquita*:0.8 sinagoga*:0.8 templo*:0.5 sacerdote*:0.7 obispo*:0.6 rabino*:0.8 cristian*:0.7 jesús:0.7 cristo:0.6 musulm*:0.7 islam*:0.8 judío*:0.6 judía*:0.6 judaísmo:0.8 hindú*:0.7 budis*:0.8 ateo:0.7 atea:0.7 ateísmo:0.8 espiritual*:0.5 culto:0.4 misa:0.7 pecado*:0.5 católic*:0.7 protestant*:0.7 catedral*:0.7 capilla*:0.6 ramadán:0.7 papa_francisco:0.8',
    'Illicit Drugs': 'cocaína:0.8 heroína:0.5 metanfetamina:0.8 crack:0.4 fentanilo:0.8 opioide*:0.6 cannabis:0.6 marihuana:0.7 hachís:0.7 porro:0.5 porros:0.5 éxtasis:0.4 mdma:0.8 lsd:0.8 sobredosis:0.7 narcotraficante*:0.8 narcotráfico:0.8 traficante*:0.5 estupefaciente*:0.8 droga*:0.6 cártel*:0.6 drogadicto*:0.7',
    'War & Conflict': 'guerra*:0.7 ejército*:0.6 tropa*:0.6 soldado*:0.7 militar*:0.6 invasión:0.7 invadi*:0.5 ataque_aéreo:0.8 bombardeo*:0.6 misil*:0.7 artillería:0.8 batalla*:0.6 alto_el_fuego:0.8 combate*:0.5 conflicto*:0.4 rebelde*:0.5 insurgente*:0.7 milicia*:0.7 otan:0.6 genocidio:0.7 guerrilla*:0.7',
    Politics: 'polític*:0.8 elecci*:0.8 electoral*:0.7 voto:0.5 votos:0.5 votar:0.5 votación*:0.5 votante*:0.7 gobierno*:0.6 parlamento*:0.8 congreso*:0.7 senado*:0.7 diputad*:0.7 president*:0.5 primer_ministro:0.8 ministr*:0.5 partidos:0.3 referéndum:0.8 candidat*:0.5 alcalde*:0.5 oposición:0.3 diplomátic*:0.5 sanciones:0.3 legislaci*:0.5',
    Legal: 'tribunal*:0.7 juzgado*:0.7 juicio*:0.5 juez:0.5 jueces:0.5 jueza:0.5 abogad*:0.7 demandó:0.7 demandado*:0.7 demandante*:0.8 veredicto*:0.7 jurado:0.6 fiscalía:0.8 acusado*:0.5 imputado*:0.7 condenado*:0.6 apelación:0.4 contrato*:0.4 legal*:0.6 ilegal*:0.5 ley:0.5 leyes:0.5 litigio*:0.8 derechos_de_autor:0.6 patente*:0.5 testimonio*:0.4 delito*:0.6 sentencia*:0.5',
    'Firearms & Weapons': 'arma:0.6 armas:0.6 arma_de_fuego:0.9 armas_de_fuego:0.9 pistola*:0.8 rifle*:0.8 fusil*:0.8 escopeta*:0.8 revólver*:0.8 munición:0.8 municiones:0.8 bala:0.4 balas:0.5 cuchillo*:0.4 navaja*:0.5 machete*:0.6 explosivo*:0.6 bomba*:0.5 francotirador*:0.7 ametralladora*:0.8 kalashnikov:0.8',
    'Public Safety': 'policía*:0.6 policial*:0.6 bomberos:0.7 bombero:0.7 emergencia*:0.5 evacua*:0.7 ambulancia*:0.6 terremoto*:0.7 sismo*:0.7 inundaci*:0.6 incendio*:0.5 huracán:0.7 tormenta*:0.3 crimen:0.5 crímenes:0.5 criminal*:0.4 detenido*:0.5 arresto*:0.5 robo:0.5 robos:0.5 asalto*:0.4 tiroteo*:0.5 terroris*:0.5 atentado*:0.6 explosión:0.5 accidente*:0.4 seguridad:0.3 disturbios:0.6 toque_de_queda:0.6 desaparecido*:0.4',
    'Death Harm & Tragedy': 'muerte*:0.6 muerto*:0.5 murió:0.6 murieron:0.6 fallec*:0.7 morir:0.4 asesinad*:0.6 mortal*:0.5 funeral*:0.7 entierro*:0.6 velorio*:0.7 tragedia*:0.7 trágic*:0.6 víctima*:0.5 luto:0.6 suicid*:0.8 asesinato*:0.6 cadáver*:0.7 masacre*:0.7 catástrofe*:0.5 ahogad*:0.5 herido*:0.4 cementerio*:0.5 ataúd:0.6',
    Violent: 'matar:0.3 asesin*:0.5 apuñal*:0.6 violencia*:0.5 violent*:0.4 golpiza*:0.5 paliza*:0.4 masacre*:0.6 tortura*:0.6 sangrient*:0.4 brutal*:0.4 degoll*:0.7 estrangul*:0.6',
    Sexual: 'desnud*:0.3 erótic*:0.5 sexual*:0.5 sexy:0.4 prostitu*:0.6 burdel*:0.6'
  }
}
