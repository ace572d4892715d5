/** English: our profane words (obscenity and cuss add theirs), phrase rules and topic words. */
import type { LanguageData } from './types.js'

export const en: LanguageData = {
  words: {
    general: 'wtf:1 fml:1 goddamn:1 goddamned:1 goddammit:1 bullcrap:1 horseshit motherfucker* mothafucka* fuckin fucking fucked',
    mild: 'hell:0 damn:1 damned:1 dammit:1 damnit:1 crap:1 crappy:1 bloody:0 bugger:1 heck:0 darn:0 freaking:0 frigging:0 friggin:0 sod:0 arse:1 sucks:0',
    insult: 'asshole* arsehole* douchebag* douche jackass* dumbass* dickhead* shithead* fuckface* fuckwit* fucktard* twat* cunt* prick pricks wanker* tosser* bastard* scumbag* dirtbag* bellend* knobhead* dickwad* cocksucker* sonofabitch son_of_a_bitch sons_of_bitches',
    insultMild: 'idiot* moron* imbecile* cretin* stupid:1 dumb:1 loser:1 losers:1 dimwit* halfwit* nitwit* numbskull* dipstick:1 twit:1 twits:1 douchey',
    sexInsult: 'slut* whore* skank* thot:1 thots:1',
    slur: 'faggot* fag fags dyke:1 dykes:1 kike* nigger* nigga* chink chinks gook* spic spics spick spicks wetback* beaner* raghead* towelhead* sandnigger* paki pakis wop:1 wops:1 dago* kraut:1 krauts:1 coon:1 coons:1 jigaboo* golliwog* tranny trannies trannie shemale* retard retards retarded spastic* spaz mong:1 mongoloid* gypo* pikey* redskin* halfbreed* camel_jockey* porch_monkey* jungle_bunny',
    sexual: 'boner* cumshot* milf milfs titties tittie titty rimjob* blowjob* handjob* jerking_off jerk_off jack_off pussies dildo*',
    sexualMild: 'sex:1 nipple*:0 horny:1 genitals:0 intercourse:0 masturbat*:1 orgasm*:1 penis*:1 vagina*:1 porn*:2',
    rape: 'rape raped raping rapes rapist* molest*:1'
  },
  ordinary: 'cumin cockpit* shiitake* shitake dick_van_dyke moby_dick dickens dickinson* niggard* cum_laude magna_cum_laude summa_cum_laude scunthorpe essex sussex middlesex wessex penistone cockney* cocktail* peacock* hancock* analy* therapist* assassin* assignment* grape* kung_fu analect* assyria* moroni shiite* vandyke wankel gondwana* annal* analges* assn asst asson* assort* cockscomb* cocksure cryptanaly* cummerbund* dicker dickered dickering dickey* dickybird* fagot* feckless* mishit* pussycat* pussyfoot* rapeseed* rapped rappel* retardant* retarder* retardation scat traffick* booby_trap* booby_prize',
  idioms: 'hell_of_a|an dying_to to_die_for_!@object dressed_to_kill_!@object !and|then|or_i|you|we|they|he|she_killed|kills_it !and|then|or_i|you|we|they|he|she_absolutely|totally|really|just|truly|completely_killed_it !and|then|or_you|we|they_re|are_killing_it !and|then|or_i_m|am_killing_it !and|then|or_he|she_s|is_killing_it that|this|it|joke|jokes_killed_me you_re_killing_me scared|bored|worried|sick|frightened_to_death dead_tired|serious|wrong|set|sure dead_right_!now|here|there|where !there|here|where_is|s|are|re|was|were|be_the_bomb_!in|at|on|under|inside|near|behind|beneath|underneath|by|that|which da_bomb star_wars shoot_the_breeze cock_of_the|his|her|its|their_head cock|cocks|cocked|cocking_the|his|her|its|their|your|my|an|one_head|ear|ears|eye|eyebrow cock|cocks_crow|crows|crowed|crowing cock_a_doodle_doo|doodle cock_and_bull pussy_willow|willows|cat|cats',
  names: 'dick dicks cock hooker hookers fanny willy cumming',
  nameParticles: 'in near from van von de',
  sets: {
    you: 'you u ya ye youse',
    object: 'me you u ya him her them us it this that these those what my your his their our everyone everybody someone somebody people',
    modal: 'am m are re is s going gonna gon na to will ll shall wanna want wants have ve got gotta just really totally fucking fuckin literally definitely personally come and d would might could then soon tomorrow tonight now swear promise i go',
    harm: 'kill murder hurt stab shoot strangle choke slaughter butcher behead decapitate punch bash torture kidnap rape bury gut skin hang drown poison lynch execute shank stomp slap end knife',
    kin: 'family wife husband kids kid children son daughter mom mother mum mommy dad father sister brother baby girlfriend boyfriend parents',
    are: 'are re r is s',
    adv: 'a an the such so just really completely totally absolutely fucking fuckin bloody utterly truly big biggest little piece of nothing but only one dumb stupid ugly fat',
    intensifier: 'fucking fuckin fucken bloody damn damned goddamn freaking frigging',
    bad: 'worthless useless pathetic disgusting ugly stupid dumb idiot idiots moron morons loser losers failure waste trash garbage scum filth pig animal joke clown fool freak creep incompetent ignorant brainless hopeless vile repulsive gross annoying retard retarded imbecile cretin',
    badcall: 'idiot idiots moron morons loser losers imbecile cretin freak creep retard scum clown fool',
    group: 'jews muslims christians blacks whites gays lesbians immigrants refugees mexicans arabs asians women men trans foreigners catholics hindus africans indians chinese gypsies roma migrants homosexuals niggers',
    vermin: 'vermin rats cockroaches parasites animals subhuman subhumans scum filth savages apes monkeys dogs pigs disease cancer plague trash garbage inferior',
    killed: 'die killed exterminated gassed burned hanged lynched shot wiped eradicated eliminated slaughtered murdered',
    // who threatens an attack or calls for one, and the words between them and its verb: @modal's and "should" ("someone should")
    actor: 'i we someone somebody',
    intent: 'am m are re is s going gonna gon na to will ll shall wanna want wants have ve got gotta just really totally fucking fuckin literally definitely personally come and d would might could then soon tomorrow tonight now swear promise i go should must ought need needs',
    place: 'school schools campus class classroom office offices work workplace building house home church mosque synagogue temple mall store supermarket restaurant bar club nightclub concert stadium station airport hospital clinic courthouse embassy factory headquarters',
    det: 'a an the my your his her their our this that these those whole entire fucking damn goddamn',
    // whose head a bullet is wished into: not the speaker's own ("in my own head" is no threat)
    their: 'the that this his her their your its those these',
    when: 'noon midnight tonight tomorrow today morning afternoon evening oclock pm am minutes minute hours hour seconds monday tuesday wednesday thursday friday saturday sunday unless if when soon',
    maul: 'beat kick stomp punch bludgeon club batter whip choke strangle stab shoot burn starve torture bash'
  },
  rules: {
    threat: [
      'i @modal*5 @harm @you',
      'i @modal*5 @harm your @kin',
      'we @modal*5 @harm @you',
      'i @modal*5 find @you and @harm @you',
      'i @modal*5 beat|kick|smash|cut @you up',
      'i @modal*5 slit|cut your throat',
      'i @modal*5 break|snap your neck|legs|arms|face|jaw|skull|bones',
      'i @modal*5 beat|kick|knock the *1 out of @you',
      'bullet in|through your head|skull|brain|face',
      'blow your brains|head *1 off|out',
      'i @modal*4 end|take your life',
      'you @are dead meat',
      'you @are a dead man|woman|person',
      '@actor @intent*5 @harm everyone|everybody',
      '@actor @intent*5 @maul @you|him|her|them|everyone|everybody to death',
      '@actor @intent*5 put|pump|stick a|one|some? bullet|bullets|round|rounds|slug|slugs in|into|through @their *1 s? head|skull|brain|brains|face|heart|chest'
    ],
    attack: [
      '@actor @intent*5 @harm everyone|everybody|people *3 at|in @det*2 *1 s? @place',
      '@actor @intent*5 blow|shoot|burn|bomb|torch up|down @det*2 *1 s? @place',
      '@actor @intent*5 burn|torch|blow @det*2 *1 s? @place down|up',
      '@actor @intent*5 bomb|firebomb|nuke|torch @det*2 *1 s? @place',
      '@actor @intent*5 set fire to @det*2 *1 s? @place',
      '@actor @intent*5 set @det*2 *1 s? @place on fire|ablaze',
      // a bomb that will go off, or goes off at a time: a warning, where a report says it went off
      'bomb|bombs|explosive|explosives *8 goes|go|going off *2 @when',
      'bomb|bombs|explosive|explosives *8 will|ll|gonna|set|timed|about|going to? go|blow off|up',
      'bomb|bombs|explosive|explosives *8 will|ll|gonna|set|timed|about|going to? explode|detonate'
    ],
    menace: [
      'i know where you live',
      'watch your back',
      'you @modal*3 pay|regret|suffer',
      'i @modal*4 make @you pay|suffer|regret|bleed',
      'coming|come for|after @you',
      'sleep with one eye open',
      'you @modal*3 die'
    ],
    deathWish: [
      'go|just die',
      'go and die',
      'go kill yourself',
      'kill|hang|neck yourself|urself|yourselves',
      'kys',
      'drop dead',
      'die in a fire|hole|ditch',
      'hope @you @modal*2 die|rot|suffer|burn|drown|choke',
      'hope @you get cancer|aids|raped|killed',
      'you should|must|deserve|ought|need to? die',
      'drink bleach',
      'jump off a bridge|building|cliff'
    ],
    selfHarm: [
      'i @modal*4 kill|hurt|cut|harm|shoot|hang|drown|poison|end myself',
      'i @modal*2 want|wanna|wish|need to? die|disappear',
      'end|take my life',
      'end|take my own life',
      'end it all',
      'commit|committing|commited|committed suicide',
      'suicidal',
      'don|do t|not want|wanna to? live|exist',
      'no reason to live',
      'better off dead'
    ],
    insult: [
      'you @are @adv*4 $flagged',
      'you @are @adv*4 @bad',
      'you @adv*2 $flagged',
      'you @adv*2 @badcall',
      'your @kin @are @adv*3 $flagged',
      'nobody|noone @modal*2 likes|loves|wants|needs|cares you',
      'you @are nothing to me|us|anyone',
      'you @are a nobody'
    ],
    dismiss: [
      'shut up|it',
      'shut your mouth|face|trap|pie|hole',
      'shut the *1 up',
      'stfu',
      'screw|fuck you|off|yourself',
      'go to hell',
      'get lost',
      'piss|bugger|sod off',
      'eat shit',
      'suck my dick|cock|balls',
      'kiss my ass|arse',
      'bite me'
    ],
    hate: [
      '@group @are all? *1 @vermin',
      'i hate|despise all? the? @group',
      'filthy|dirty @group'
    ],
    hateViolent: [
      '@group should|must|deserve|need|ought to? be? @killed',
      'kill|gas|lynch|exterminate|hang|shoot all? the? @group',
      'death to @group'
    ]
  },
  topics: {
    Finance: 'stocks:0.5 stock_market:0.8 stock_exchange:0.8 stock_price* shares:0.4 shareholder* investor* investment* invested investing dividend* portfolio*:0.5 nasdaq:0.8 dow_jones:0.8 wall_street:0.7 bank:0.4 banks:0.4 banking banker* loan* mortgage* interest_rate*:0.7 inflation bonds:0.3 bond_market:0.8 hedge_fund* bitcoin* crypto* cryptocurrenc* earnings:0.5 revenue*:0.5 profit*:0.4 fiscal:0.5 ipo:0.7 trading:0.4 trader*:0.5 financ* economy:0.4 economic*:0.4 gdp recession* currenc*:0.5 asset*:0.4 valuation* tax:0.3 taxes:0.4 debt:0.5 budget:0.3 markets:0.4 rallied:0.3 index_fund* stock_index* market_cap* quarterly:0.3 bull_market bear_market',
    Health: 'health:0.5 healthcare:0.7 doctor*:0.6 physician* nurse:0.5 nurses:0.5 hospital hospitals hospitalized hospitalised patient patients antibiotic*:0.8 prescri* medic* disease*:0.7 symptom*:0.7 diagnos*:0.7 therap*:0.5 surgery:0.7 surgeon* vaccin*:0.7 virus*:0.4 infection*:0.7 cancer:0.7 tumor* tumour* diabet*:0.7 pandemic covid*:0.7 flu:0.5 fever:0.5 pill pills:0.4 dosage:0.5 pharmac* mental_health:0.7 depression:0.4 anxiety:0.4 illness*:0.7 sick:0.4 blood_pressure heart_attack* allerg*:0.5 asthma:0.7 dementia:0.7 alzheimer*:0.7 chemotherapy:0.8 clinic*:0.6 epidemic*',
    'Religion & Belief': 'church*:0.7 god:0.5 gods:0.5 religio*:0.8 faith:0.5 pray*:0.6 bible*:0.8 quran:0.8 koran:0.8 torah:0.8 mosque*:0.8 synagogue*:0.8 temple*:0.5 priest*:0.7 pope:0.7 bishop*:0.6 imam*:0.8 rabbi*:0.8 pastor*:0.7 christian*:0.7 christ:0.6 jesus:0.7 muslim*:0.7 islam*:0.8 jewish:0.6 judaism:0.8 hindu*:0.7 buddhis*:0.8 buddha:0.7 atheis*:0.7 spiritual*:0.5 worship*:0.7 sermon*:0.8 heaven:0.5 sin:0.4 sins:0.4 salvation:0.6 baptis*:0.7 catholic*:0.7 protestant*:0.7 evangelical*:0.6 allah:0.8 divine:0.4 holy:0.4 gospel*:0.6 theolog*:0.8 clergy:0.8 monk monks nun:0.5 nuns:0.5 cathedral*:0.7 chapel*:0.6 ramadan:0.7 congregation*:0.6',
    'Illicit Drugs': 'cocaine:0.8 heroin:0.8 meth:0.7 methamphetamine:0.8 crack_cocaine:0.8 fentanyl:0.8 opioid*:0.6 weed:0.4 marijuana:0.7 cannabis:0.6 ecstasy:0.4 mdma:0.8 lsd:0.8 overdos*:0.7 drug_dealer*:0.8 drug_trafficking:0.8 drug_cartel* narcotic*:0.8 drugs:0.5 cartel*:0.5 stoned:0.4 ketamine:0.7 crystal_meth:0.8 junkie*:0.7 addict*:0.4 smoke_weed:0.8 get_high:0.5 getting_high:0.5',
    'War & Conflict': 'war:0.7 wars:0.7 warfare:0.8 wartime army:0.6 armies troop* soldier* military:0.6 invasion:0.7 invade*:0.6 airstrike*:0.8 air_strike* missile*:0.7 artillery:0.8 battle*:0.6 battlefield:0.8 ceasefire:0.8 cease_fire:0.8 combat:0.6 conflict*:0.4 rebel*:0.5 insurgen*:0.7 militia*:0.7 nato:0.6 front_line*:0.6 frontline*:0.6 bombing*:0.5 shelling:0.7 genocide:0.7 tanks:0.3 drone_strike* navy:0.5 peace_talks:0.6 casualties:0.3 warplane* warship* guerrilla*:0.7 occupied_territor*',
    Politics: 'politic*:0.8 election*:0.8 vote*:0.5 voter*:0.7 voting:0.6 ballot*:0.7 government*:0.6 parliament*:0.8 congress*:0.7 senate:0.7 senator*:0.8 president*:0.5 prime_minister:0.8 minister*:0.5 campaign*:0.3 democrat*:0.7 republican*:0.7 liberal*:0.3 conservative*:0.3 legislat*:0.5 policy:0.3 policies:0.3 referendum*:0.8 candidate*:0.5 governor*:0.6 mayor*:0.5 opposition:0.3 diplomat*:0.5 sanction*:0.4 lawmaker*:0.8 white_house:0.6 kremlin:0.6 brexit:0.7 political_party:0.8',
    Legal: 'court courts courtroom supreme_court:0.8 lawsuit*:0.8 sue:0.6 sued:0.7 suing:0.7 judge:0.5 judges:0.5 lawyer*:0.7 attorney*:0.7 legal*:0.6 law:0.5 laws:0.5 trial:0.4 verdict*:0.7 jury:0.7 juror*:0.7 plaintiff*:0.8 defendant*:0.8 prosecut*:0.7 indict*:0.8 convict*:0.6 sentenced:0.6 appeal*:0.3 contract*:0.4 settlement*:0.4 litigat*:0.8 statute*:0.7 regulat*:0.4 complian*:0.4 copyright*:0.6 patent*:0.5 trademark*:0.6 testimony:0.5 testif*:0.5 subpoena*:0.8 felony:0.7 misdemeanor:0.7 guilty:0.4 acquit*:0.8 bail:0.5 parole:0.6 illegal*:0.4 unlawful*:0.6',
    'Firearms & Weapons': 'gun:0.7 guns:0.7 gunman:0.7 gunmen:0.7 gunfire:0.7 gunshot* gunpoint:0.7 rifle*:0.8 pistol*:0.8 handgun*:0.8 shotgun*:0.8 firearm*:0.8 revolver*:0.7 ammunition:0.8 ammo:0.7 bullet*:0.6 weapon*:0.6 knife:0.4 knives:0.4 sword*:0.4 machete*:0.6 grenade*:0.8 explosive*:0.6 bomb:0.5 bombs:0.5 sniper*:0.7 ar_15:0.8 ak_47:0.8 caliber:0.5 calibre:0.5 assault_rifle*:0.8 machine_gun*:0.8 holster*:0.6 trigger:0.3 crossbow*:0.6 taser*:0.5',
    'Public Safety': 'police:0.6 policeman policemen emergency:0.5 emergencies evacuat*:0.7 firefighter*:0.7 fire_department* ambulance*:0.6 paramedic*:0.6 earthquake*:0.7 flood*:0.5 wildfire*:0.7 hurricane*:0.7 tornado*:0.7 missing_person*:0.6 public_safety:0.8 crime*:0.5 criminal*:0.4 arrest*:0.5 robbery:0.6 burglar*:0.6 theft:0.5 assault:0.4 shooting:0.5 terror*:0.5 explosion*:0.5 hazard*:0.5 hazmat:0.8 accident accidents crash:0.3 collision*:0.4 safety:0.4 rescue*:0.5 lockdown:0.4 curfew:0.6 riot*:0.6 911:0.5',
    'Death Harm & Tragedy': 'death*:0.6 dead:0.5 die:0.4 died:0.6 dies:0.5 dying:0.5 killed:0.6 fatal*:0.6 funeral*:0.7 tragedy:0.7 tragic*:0.6 victim*:0.5 mourn*:0.6 grief:0.5 grieving:0.6 suicid*:0.8 murder*:0.6 corpse*:0.7 casualt*:0.6 obituar*:0.7 massacre*:0.7 disaster*:0.5 catastroph*:0.5 perished:0.7 passed_away:0.7 drowned:0.6 injured:0.4 wounded:0.4 cemetery:0.5 coffin:0.6',
    Violent: 'kill:0.3 killed:0.3 killing*:0.4 murder*:0.5 stab:0.5 stabbed:0.5 stabbing*:0.5 shoot:0.3 shooting*:0.4 assault*:0.4 attack*:0.3 beaten:0.4 violen*:0.5 massacre*:0.6 tortur*:0.6 bloodshed:0.5 slaughter*:0.5 brutal*:0.4 strangl*:0.6 behead*:0.7 punched:0.3',
    Sexual: 'nude*:0.4 naked:0.3 erotic*:0.5 sexual*:0.5 sexy:0.4 lingerie:0.3 stripper*:0.5 prostitut*:0.6 brothel*:0.6 xxx:0.6'
  }
}
