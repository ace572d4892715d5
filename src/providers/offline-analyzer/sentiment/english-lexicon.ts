/**
 * Our English supplement, on VADER's scale: evaluative words and review phrases that VADER, AFINN and wink-nlp
 * leave unrated ("sturdy", "bland", "waste of", "stay away", "will be back", "10/10"). Phrases use "_" for a space;
 * a negator before a phrase turns it like a word ("won't be back").
 */
export const ENGLISH_SUPPLEMENT = `
extraordinary:2.8 phenomenal:3 outstanding:3 superb:3 exceptional:3 stellar:2.8 flawless:3 impeccable:3 top-notch:3
first-rate:2.6 splendid:3 marvelous:3 marvellous:3 terrific:3 fabulous:3 gorgeous:2.8 stunning:2.8 sublime:3 sublimely:2.8
masterpiece:3.2 masterful:3 brilliant:3 brilliantly:3 riveting:2.6 gripping:2.4 captivating:2.6 engrossing:2.4 moving:1
touching:1.8 heartwarming:2.6 hilarious:2.4 witty:2 clever:2 charming:2.4 delightful:2.8 enjoyable:2.4 entertaining:2.2
memorable:2 refreshing:2 impressive:2.4 impressed:2.4 solid:1.4 sturdy:1.6 durable:1.6 reliable:1.8 well-made:2
convenient:1.8 handy:1.6 comfortable:1.8 smooth:1.2 smoothly:1.4 seamless:1.8 seamlessly:1.8 intuitive:1.8 responsive:1.4
crisp:1.2 clear:0.8 prompt:1.6 promptly:1.6 quick:1.2 quickly:1 fast:1.2 speedy:1.4 attentive:2 courteous:2
accommodating:2 knowledgeable:1.8 professional:1.6 tasty:2.4 flavorful:2.4 flavourful:2.4 yummy:2.6 scrumptious:3 mouthwatering:2.6
succulent:2.2 tender:1.4 juicy:1.6 crispy:1 savory:1.4 authentic:1.4 generous:2 reasonable:1.2 affordable:1.4 bargain:1.6
worth:1.4 worthwhile:1.8 recommended:2 must-see:2.6 must-have:2.4 gem:2.4 favorite:2 favourite:2 winner:2.2 classic:1.4
works_great:2.6 works_well:2.2 works_fine:1.6 works_perfectly:2.8 as_described:1.4 as_advertised:1.4 exactly_what:1.6
just_what:1.4 thumbs_up:2.2 be_back:1.8 come_back:1.4 coming_back:1.6 go_back:1 going_back:1 back_again:1.6 return_again:1.8
again_and_again:1.6 highly_recommend:3 would_recommend:2.2 must_try:2.2 out_of_this_world:2.8 above_and_beyond:2.8
blown_away:2.6 10_/_10:3 9_/_10:2.6 8_/_10:2 7_/_10:1.2 5_stars:2.8 five_stars:2.8 4_stars:1.8 four_stars:1.8
abysmal:-3.2 atrocious:-3.2 dreadful:-3 appalling:-3 abominable:-3 deplorable:-3 lousy:-2.6 crappy:-2.8 shoddy:-2.6
subpar:-2.2 sub-par:-2.2 below-par:-2.2 mediocre:-2 bland:-1.8 tasteless:-2.2 flavorless:-2.2 flavourless:-2.2 soggy:-1.8
stale:-1.8 greasy:-1.4 overcooked:-1.8 undercooked:-1.8 lukewarm:-1.4 overpriced:-2.2 pricey:-0.8 expensive:-0.6
cheap:-0.8 cheaply:-1.6 flimsy:-2 fragile:-1.2 slow:-1.4 slowly:-1 sluggish:-1.6 laggy:-1.8 unreliable:-2 unusable:-2.6
useless:-2.4 worthless:-2.8 defective:-2.4 faulty:-2.2 broken:-2 broke:-1.6 breaks:-1.6 crashed:-1.8 crashes:-1.8 crashing:-1.8
freezes:-1.6 froze:-1.6 died:-1.6 dies:-1.4 dead:-1.6 junk:-2.6 trash:-2.4 garbage:-2.6 crap:-2.4 rip-off:-2.8 ripoff:-2.8
scam:-3 nightmare:-2.8 disaster:-2.8 fiasco:-2.6 mess:-1.8 unwatchable:-3 unbearable:-2.8 unpleasant:-2.2 tedious:-2
dull:-1.8 predictable:-1.4 cliched:-1.6 clichéd:-1.6 cheesy:-1.4 forgettable:-1.8 pointless:-2.2 senseless:-2
unnecessary:-1.2 incoherent:-2 pretentious:-1.8 overrated:-1.8 overacted:-1.8 wooden:-1.4 amateurish:-2.2 lame:-2
rude:-2.6 unprofessional:-2.4 unfriendly:-2.2 inattentive:-2 incompetent:-2.6 filthy:-2.8 dirty:-2 gross:-2.4 disgusting:-3
inedible:-3 undrinkable:-2.8 sick:-1.6 refund:-1.6 returned:-1.2 returning:-1.4 return_it:-1.6 sent_it_back:-2 waste_of:-2.6
stay_away:-2.6 steer_clear:-2.6 thumbs_down:-2.2 zero_stars:-3 0_stars:-3 1_star:-2.6 one_star:-2.6 2_stars:-1.6
two_stars:-1.6 1_/_10:-3 2_/_10:-2.6 3_/_10:-2.2 4_/_10:-1.4 wasted:-2.2
unacceptable:-2.8 disappointment:-2.6 disappointing:-2.4 letdown:-2.2 let_down:-2.2 poorly:-2.2 horribly:-2.8 terribly:-2.4
`
