/** French: our profane words (cuss/fr adds its own), phrase rules and topic words. */
import type { LanguageData } from './types.js'

export const fr: LanguageData = {
  words: {
    general: 'merde* putain* bordel:1 foutre:1 foutu:1 foutue:1 chier chiant:1 chiante:1 chiants:1 chiantes:1 emmerd* fait_chier couille* couillon*:1 niquer* nique:1 enculer* connerie* cul:1 pisser:1 bordel_de_merde putain_de_merde',
    mild: 'zut:0 crotte:0 fichu:0 bon_sang:0 sacrebleu:0 mince_alors:0 punaise:0',
    insult: 'connard* connasse* conne:1 con:1 enculé* enfoiré* salaud* salopard* bâtard* ordure:1 fils_de_pute fdp trou_du_cul trouduc branleur* pauvre_con tête_de_noeud tête_de_con sous_merde',
    insultMild: 'idiot* imbécile* crétin* débile* abruti* stupide* minable*:1 bouffon*:1 gogol*:1 neuneu:1 cinglé:1 cinglée:1 cinglés:1',
    sexInsult: 'salope salopes saloperie* pute putes pétasse* catin:1 garce:1 pouffiasse* grognasse*',
    slur: 'pédé pédés pd tapette:1 tapettes:1 tarlouze* tafiole* fiotte* gouine* bougnoul* youpin* négro négros nègre:1 nègres:1 bicot* chinetoque* bamboula* schleu* boche:1 boches:1 trisomique:1 mongolien*',
    sexual: 'bite bites teub zob chibre nichons branler* branlette* baise:1 chatte:1 fellation* sodomi*:1',
    sexualMild: 'sexe:1 sexuel:0 pénis:1 vagin:1 porno*:2 pornograph*:2 orgasme*:1 masturb*:1',
    rape: 'viol viols violeur* violée:1 violées:1'
  },
  ordinary: 'cul_de_sac culs_de_sac mettre envoyer gros poche panier melon plume poil taper sauter does esque graine glisser exploser dégager choper gosse gosses matos démonter décharger dilater enfiler enfler latter limer peler pomper pourrir ramoner fourbir fourrer tâter astiquer crosse crosser culasse culbuter sphincter diarrhée mouron piment shampoing sucer mouille flûte riflard doigter emmancher déglinguer crissement coquillard pédale pédales fesse fesses bibite gueule gueuler gland glands pipe pipes retard retards moule moules morue minou gousse gourdin rondelle boule boules queue queues porc porcs rab pqr pare_chocs pare_choc pays_bas salle_des_fêtes bombe_atomique avoir_les_nerfs ta_mère sa_mère ta_bouche se_taper se_faire bon_coup casser_le_pot mettre_la_misère se_casser_le_tronc se_cogner être_la_fête chat baiser baisers rape râpe râpes retarder retardé retardée retardement tuyau tuyaux p_tit p_tite pique_nique pique_niquer cumin fanal annal annales cul_de_jatte cul_de_lampe cul_de_poule salopette salopettes',
  idioms: 'est|était|sera_de_la_bombe_!dans|sous|derrière|près|qui|que mort|morte|morts|mortes_de_rire|fatigue|faim|soif|peur|froid|honte|ennui mourir_de_rire|faim|soif|peur|froid|honte|ennui',
  sets: {
    je: 'je j',
    aux: 'vais vas va veux voudrais jure que vraiment finir par peux pourrais devrais aller allons aime bien sérieusement sur le la',
    harm: 'tuer tue tuerai tuerais buter bute buterai crever égorger égorge égorgerai poignarder poignarde massacrer massacre flinguer flingue abattre abats étrangler étrangle tabasser tabasse frapper frappe cogner cogne défoncer défonce démolir démolis violer viole brûler brûle achever exploser éclater planter',
    body: 'gueule tête figure face bouche dents jambes crâne nez',
    tu: 'tu t vous',
    are: 'es êtes etes est',
    adv: 'un une qu que vraiment juste trop tellement espèce d de gros grosse sale petit petite pauvre rien qu vieux vieille putain foutu',
    intensifier: 'putain foutu foutue sacré sacrée vachement',
    bad: 'nul nulle nuls inutile inutiles minable pathétique pitoyable ridicule débile stupide idiot idiote imbécile moche laid laide grosse déchet déchets ordure ordures merde rien incapable incompétent incompétente abruti abrutie raté ratée dégueulasse',
    group: 'juifs musulmans arabes noirs blancs gays homos homosexuels immigrés immigrants réfugiés étrangers femmes roms migrants chrétiens catholiques africains asiatiques chinois',
    vermin: 'vermine rats cafards parasites animaux racaille déchets ordures singes chiens porcs sauvages maladie cancer peste',
    killed: 'mourir crever tués tuées exterminés gazés pendus abattus brûlés massacrés disparaître'
  },
  rules: {
    threat: [
      '@je @aux*4 te|t|vous @harm',
      '@je @aux*4 te|t|vous casser|péter|exploser|défoncer|éclater|refaire la|les @body',
      '@je @aux*4 tuer|buter|égorger|massacrer toi|ta famille',
      '@je @aux*4 te|t mettre une balle',
      'une balle dans la|ta tête'
    ],
    menace: [
      '@je sais où tu habites|vis',
      '@tu @aux*2 le|la? payer|regretter',
      '@tu es|êtes|etes|est|vas un? homme? mort|morte|morts',
      '@tu vas|allez mourir|crever|souffrir',
      'fais|faites gaffe à toi|vous'
    ],
    deathWish: [
      'va|allez|vas mourir|crever',
      'va|allez te|vous pendre|tuer|suicider',
      'suicide|tue|pends toi|vous',
      'crève|crevez en enfer',
      'espère que @tu @aux*2 mourir|crever|crèves|meures|creves',
      'jette toi d un pont'
    ],
    selfHarm: [
      '@je @aux*4 me|m tuer|suicider|pendre|jeter',
      '@je @aux*4 foutre en l air',
      '@je veux|voudrais mourir|disparaître',
      '@je veux|voudrais en finir',
      'envie de mourir|crever|disparaître',
      'mettre fin à mes jours|ma vie',
      'plus envie de vivre'
    ],
    insult: [
      '@tu @are @adv*4 $flagged',
      '@tu @are @adv*4 @bad',
      'espèce d|de $flagged|@bad',
      'espèce d|de @adv*2 $flagged',
      'sale @adv*2 $flagged',
      'personne ne t|vous aime|supporte'
    ],
    dismiss: [
      'ta|votre gueule',
      'ferme|fermez ta|la|votre gueule|bouche',
      'tais toi',
      'taisez vous',
      'va|allez te|vous faire foutre|enculer|voir',
      'dégage|dégagez',
      'casse|cassez toi|vous',
      'nique|niquez ta|sa|votre mère',
      'va|allez chier',
      'fous|foutez le camp'
    ],
    hate: [
      '@group sont tous|toutes? des? @vermin',
      '@je hais|déteste|deteste les @group',
      'sale|sales @group'
    ],
    hateViolent: [
      '@group doivent|devraient|méritent|meritent de? être? @killed',
      'mort aux @group',
      'tuer|tuons|gazer|exterminer|exterminons tous? les @group'
    ]
  },
  topics: {
    Finance: 'bourse:0.7 boursier* actions:0.4 actionnaire* investisseur* investissement* dividende* portefeuille:0.4 banque* bancaire* prêt:0.3 prêts:0.4 crédit*:0.4 hypothèque* taux_d_intérêt:0.7 taux_directeur:0.7 inflation économi*:0.4 finance* financier* financière* marché_boursier:0.8 cac_40:0.8 bitcoin* crypto* bénéfice*:0.5 chiffre_d_affaires:0.7 impôt*:0.4 fiscal* dette*:0.5 budget*:0.3 récession* devise*:0.4 euros:0.3 dollars:0.3 épargne:0.5 placement*:0.5 trader* wall_street:0.7 marchés:0.3',
    Health: 'santé:0.6 médecin* docteur*:0.5 infirmi* hôpital hôpitaux hospitalis* clinique* patient patients patiente antibiotique*:0.8 prescri* ordonnance*:0.5 médicament* médical* médicale* maladie*:0.7 symptôme*:0.7 diagnosti*:0.7 thérap*:0.5 chirurgi*:0.7 vaccin*:0.7 virus:0.4 infection*:0.7 cancer*:0.7 tumeur* diabète*:0.7 pandémie* covid*:0.7 grippe*:0.6 fièvre:0.5 pharmac* douleur*:0.3 santé_mentale:0.7 dépression:0.4',
    'Religion & Belief': 'église*:0.7 dieu:0.5 religi*:0.8 foi:0.5 prier:0.6 prière*:0.6 bible*:0.8 coran:0.8 torah:0.8 mosquée*:0.8 synagogue*:0.8 temple*:0.5 prêtre*:0.7 pape:0.7 évêque*:0.6 imam*:0.8 rabbin*:0.8 pasteur*:0.5 chrétien*:0.7 jésus:0.7 christ:0.6 musulman*:0.7 islam*:0.8 judaïsme:0.8 hindou*:0.7 bouddh*:0.8 athé*:0.7 spirituel*:0.5 culte:0.4 messe:0.7 paradis:0.4 péché*:0.5 catholique*:0.7 protestant*:0.7 allah:0.8 cathédrale*:0.7 chapelle*:0.6 ramadan:0.7',
    'Illicit Drugs': 'cocaïne:0.8 héroïne:0.5 méthamphétamine:0.8 crack:0.4 fentanyl:0.8 opioïde*:0.6 cannabis:0.6 marijuana:0.7 haschisch:0.7 beuh:0.6 ecstasy:0.5 mdma:0.8 lsd:0.8 overdose*:0.7 dealer*:0.5 trafiquant*:0.5 stupéfiant*:0.8 drogue*:0.6 cartel*:0.5 toxicomane*:0.7 trafic_de_drogue:0.8',
    'War & Conflict': 'guerre*:0.7 armée*:0.6 troupe*:0.6 soldat*:0.7 militaire*:0.6 invasion:0.7 envahi*:0.5 frappe_aérienne:0.8 frappes_aériennes:0.8 missile*:0.7 artillerie:0.8 bataille*:0.6 cessez_le_feu:0.8 combat*:0.5 conflit*:0.4 rebelle*:0.5 insurg*:0.7 milice*:0.7 otan:0.6 bombardement*:0.6 génocide:0.7',
    Politics: 'politi*:0.8 élection*:0.8 électora*:0.7 vote:0.5 votes:0.5 voter:0.5 électeur*:0.7 scrutin*:0.7 gouvernement*:0.6 parlement*:0.8 assemblée_nationale:0.8 sénat*:0.7 député*:0.7 président*:0.5 premier_ministre:0.8 ministre*:0.5 parti:0.3 partis:0.3 référendum*:0.8 candidat*:0.5 maire:0.5 opposition:0.3 diplomat*:0.5 sanction*:0.3 législati*:0.5',
    Legal: 'tribunal* tribunaux:0.7 procès:0.7 juge:0.5 juges:0.5 avocat:0.4 avocats:0.4 plainte*:0.5 verdict*:0.7 jury:0.7 plaignant*:0.8 accusé*:0.4 prévenu*:0.5 procureur*:0.7 inculp*:0.8 condamn*:0.5 contrat*:0.4 juridique*:0.8 légal*:0.6 illégal*:0.5 loi:0.5 lois:0.5 litige*:0.8 droit_d_auteur:0.6 brevet*:0.5 témoignage*:0.4 délit*:0.6 mis_en_examen:0.8',
    'Firearms & Weapons': 'arme:0.6 armes:0.6 arme_à_feu:0.9 armes_à_feu:0.9 fusil*:0.8 pistolet*:0.8 revolver*:0.8 carabine*:0.8 munition*:0.8 balles:0.4 cartouche*:0.5 couteau*:0.4 poignard*:0.6 grenade*:0.6 explosif*:0.6 bombe*:0.5 kalachnikov*:0.8 sniper*:0.7',
    'Public Safety': 'police*:0.6 policier* gendarme* pompier*:0.7 urgence*:0.5 évacu*:0.7 ambulance*:0.6 secours:0.5 séisme*:0.7 tremblement_de_terre:0.8 inondation*:0.6 incendie*:0.5 ouragan*:0.7 tempête*:0.4 criminel*:0.4 arrestation*:0.5 interpell*:0.5 cambriol*:0.6 agression*:0.4 fusillade*:0.5 terroris*:0.5 attentat*:0.6 explosion*:0.5 accident:0.4 accidents:0.4 sécurité:0.4 émeute*:0.6 couvre_feu:0.6',
    'Death Harm & Tragedy': 'mort:0.5 morts:0.5 mortel*:0.5 décès:0.7 décéd*:0.7 meurt:0.5 mourir:0.4 mourant*:0.5 tué:0.5 tués:0.5 tuée:0.5 funéraille*:0.7 enterrement*:0.6 obsèques:0.7 tragédie*:0.7 tragique*:0.6 victime*:0.5 deuil:0.6 suicid*:0.8 meurtre*:0.6 cadavre*:0.7 massacre*:0.7 catastrophe*:0.5 noyé*:0.6 blessé*:0.4 cimetière*:0.5 cercueil*:0.6',
    Violent: 'tuer:0.3 meurtre*:0.5 poignardé*:0.5 agress*:0.4 violence*:0.5 violent*:0.4 massacre*:0.6 tortur*:0.6 sanglant*:0.4 brutal*:0.4 égorg*:0.7 étrangl*:0.6 tabass*:0.5',
    Sexual: 'nue:0.3 nues:0.3 érotique*:0.5 sexuel*:0.5 sexuelle*:0.5 sexy:0.4 prostitu*:0.6 strip_tease:0.5'
  }
}
