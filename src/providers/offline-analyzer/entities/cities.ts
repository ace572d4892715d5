/**
 * Major cities as written in French, German, Spanish, Italian, Portuguese and Dutch where the name
 * differs from the English one (which compromise's lexicon lists). Any language's form is looked for
 * in every language: a capitalised "Londres" is London in a German text too.
 */
export const CITY_NAMES: readonly string[] = [
  // London, Munich, Cologne, Vienna, Rome, Milan, Venice, Florence, Naples, Turin, Genoa
  'Londres', 'Londra', 'Londen', 'Munich', 'München', 'Múnich', 'Monaco di Baviera', 'Munique', 'Köln', 'Colonia', 'Colônia', 'Keulen',
  'Wien', 'Vienne', 'Viena', 'Vienna', 'Wenen', 'Rom', 'Roma', 'Milano', 'Mailand', 'Milán', 'Milão', 'Venise', 'Venedig', 'Venecia', 'Venezia',
  'Veneza', 'Venetië', 'Florence', 'Florenz', 'Florencia', 'Firenze', 'Florença', 'Florence', 'Naples', 'Neapel', 'Nápoles', 'Napoli', 'Napels',
  'Turin', 'Turín', 'Torino', 'Gênes', 'Genua', 'Génova', 'Genova', 'Génova',
  // Lisbon, Brussels, Antwerp, The Hague, Geneva, Zurich, Basel, Warsaw, Prague, Moscow, Athens, Copenhagen
  'Lisbonne', 'Lissabon', 'Lisboa', 'Lisbona', 'Bruxelles', 'Brüssel', 'Bruselas', 'Bruxelas', 'Brussel', 'Anvers', 'Antwerpen', 'Amberes',
  'Anversa', 'La Haye', 'Den Haag', 'La Haya', "L'Aia", 'Haia', 'Genève', 'Genf', 'Ginebra', 'Ginevra', 'Genebra', 'Zürich', 'Zúrich',
  'Zurigo', 'Bâle', 'Basilea', 'Basileia', 'Varsovie', 'Warschau', 'Varsovia', 'Varsavia', 'Varsóvia', 'Prag', 'Praga', 'Moscou', 'Moskau',
  'Moscú', 'Mosca', 'Moscovo', 'Moskou', 'Athènes', 'Athen', 'Atenas', 'Atene', 'Athene', 'Copenhague', 'Kopenhagen', 'Copenaghen',
  'Copenhaga', 'Stockholm', 'Estocolmo', 'Stoccolma',
  // Beijing, Cairo, New York, Washington, Edinburgh, Marseille, Seville, Barcelona, Saint Petersburg, Mexico City
  'Pékin', 'Peking', 'Pekín', 'Pechino', 'Pequim', 'Le Caire', 'Kairo', 'El Cairo', 'Il Cairo', 'New York', 'Nueva York', 'Nova Iorque',
  'Nova York', 'Washington', 'Édimbourg', 'Edinburgo', 'Edimburgo', 'Marseille', 'Marsella', 'Marsiglia', 'Marselha', 'Séville', 'Sevilla',
  'Siviglia', 'Sevilha', 'Barcelone', 'Barcellona', 'Saint-Pétersbourg', 'Sankt Petersburg', 'San Petersburgo', 'San Pietroburgo',
  'São Petersburgo', 'Mexico', 'Ciudad de México', 'Città del Messico', 'Cidade do México', 'Mexico-Stad',
  // Frankfurt, Hamburg, Nuremberg, Strasbourg, Lyon, Bordeaux, Lille, Nice, Toulouse, Nantes
  'Francfort', 'Fráncfort', 'Francoforte', 'Frankfurt am Main', 'Hambourg', 'Hamburgo', 'Amburgo', 'Nuremberg', 'Nürnberg', 'Núremberg',
  'Norimberga', 'Strasbourg', 'Straßburg', 'Estrasburgo', 'Strasburgo', 'Lyon', 'Lione', 'Bordeaux', 'Burdeos', 'Bordéus', 'Lille', 'Nice',
  'Nizza', 'Niza', 'Toulouse', 'Tolosa', 'Nantes',
  // Madrid, Valencia, Bilbao, Porto, Amsterdam, Rotterdam, Utrecht, Berlin, Dresden, Leipzig, Stuttgart, Düsseldorf, Dublin, Edinburgh
  'Madrid', 'Valencia', 'Valence', 'Bilbao', 'Málaga', 'Zaragoza', 'Saragosse', 'Porto', 'Oporto', 'Coimbra', 'Braga', 'Amsterdam',
  'Ámsterdam', 'Amsterdão', 'Rotterdam', 'Róterdam', 'Utrecht', 'Eindhoven', 'Berlin', 'Berlín', 'Berlino', 'Berlim', 'Bonn', 'Dresde',
  'Dresda', 'Leipzig', 'Lipsia', 'Stuttgart', 'Stoccarda', 'Düsseldorf', 'Hannover', 'Hanovre', 'Bremen', 'Brême', 'Dublin', 'Dublín',
  'Dublino', 'Edimbourg', 'Bruges', 'Brugge', 'Brujas', 'Gand', 'Gent', 'Gante', 'Liège', 'Luik', 'Lieja', 'Luxembourg', 'Luxemburg',
  'Luxemburgo', 'Lussemburgo', 'Monaco', 'Mónaco', 'Salzbourg', 'Salzburgo', 'Salisburgo', 'Innsbruck', 'Bern', 'Berne', 'Berna',
  'Lausanne', 'Losanna', 'Lugano', 'Bologna', 'Bologne', 'Bolonia', 'Bolonha', 'Palerme', 'Palermo', 'Bari', 'Pise', 'Pisa',
  'Jérusalem', 'Jerusalén', 'Gerusalemme', 'Jerusalém', 'Istanbul', 'Estambul', 'Istambul', 'Tokyo', 'Tokio', 'Tóquio', 'Shanghai',
  'Shanghái', 'Xangai', 'Hong Kong', 'Hongkong', 'Macao', 'Macau', 'Séoul', 'Seúl', 'Seul', 'Bombay', 'Mumbai', 'New Delhi', 'Nueva Delhi',
  'Nuova Delhi', 'Nova Deli', 'Sydney', 'Sídney', 'Melbourne', 'Los Angeles', 'Los Ángeles', 'San Francisco', 'São Francisco', 'Chicago',
  'Boston', 'Miami', 'Montréal', 'Montreal', 'Québec', 'Quebec', 'Toronto', 'Buenos Aires', 'Rio de Janeiro', 'São Paulo', 'San Paolo',
  'Brasilia', 'Brasília', 'Lima', 'Bogotá', 'Santiago du Chili', 'Santiago de Chile', 'Caracas', 'La Havane', 'Havanna', 'La Habana',
  "L'Avana", 'Havana', 'Le Cap', 'Kapstadt', 'Ciudad del Cabo', 'Città del Capo', 'Cidade do Cabo', 'Kaapstad', 'Alger', 'Algier',
  'Argel', 'Algeri', 'Tunis', 'Túnez', 'Tunisi', 'Casablanca', 'Dakar', 'Nairobi', 'Lagos', 'Kinshasa', 'Abidjan', 'Alexandrie', 'Alexandria',
  'Alejandría', 'Alessandria', 'Damas', 'Damaskus', 'Damasco', 'Beyrouth', 'Beirut', 'Beirute', 'Téhéran', 'Teheran', 'Teherán', 'Teerã',
  'Bagdad', 'Bagdá', 'Riyad', 'Riad', 'Dubaï', 'Dubái', 'Singapour', 'Singapur', 'Singapura', 'Bangkok', 'Banguecoque', 'Manille', 'Manila',
  'Kiev', 'Kyiv', 'Kiew', 'Kiev', 'Kiiv', 'Kyjiw', 'Budapest', 'Bucarest', 'Bukarest', 'Bucareste', 'Boekarest', 'Belgrade', 'Belgrad',
  'Belgrado', 'Sofia', 'Sofía', 'Zagreb', 'Zagabria', 'Ljubljana', 'Lubiana', 'Bratislava', 'Cracovie', 'Krakau', 'Cracovia', 'Cracóvia',
  'Helsinki', 'Helsingfors', 'Oslo', 'Reykjavik', 'Tallinn', 'Riga', 'Vilnius', 'Minsk', 'Ankara', 'Tel Aviv'
]

/** City names (folded) that are also common capitalised words or surnames in a language, not looked for there. */
export const CITY_EXCLUSIONS: Readonly<Record<string, readonly string[]>> = {
  de: ['bergen', 'halle', 'essen', 'hof', 'lima', 'nice', 'mobile', 'reading', 'split', 'bath', 'rio', 'salem', 'kingston'],
  nl: ['bergen', 'hof', 'nice', 'split', 'reading', 'bath', 'mobile'],
  fr: ['reading', 'mobile', 'split', 'bath', 'salem', 'rio'],
  es: ['reading', 'mobile', 'split', 'bath', 'rio', 'salem', 'medina', 'mendoza', 'santa fe', 'san juan', 'san pedro'],
  it: ['reading', 'mobile', 'split', 'bath', 'rio', 'salem', 'medina'],
  pt: ['reading', 'mobile', 'split', 'bath', 'rio', 'salem', 'medina']
}

/**
 * Cities whose English name compromise's lexicon reads as a person's ("Adelaide", "Charlotte",
 * "Houston") or as neither a person's nor a place's ("Florence"): places only where a preposition of
 * place before them says so (place-context.ts).
 */
export const CITIES_NAMED_LIKE_PERSONS: readonly string[] = [
  'Adelaide', 'Alexandria', 'Austin', 'Charlotte', 'Chester', 'Darwin', 'Eugene', 'Florence', 'Hamilton', 'Helena', 'Houston', 'Jackson',
  'Lincoln', 'Madison', 'Orlando', 'Preston', 'Regina', 'Santiago', 'Savannah', 'Sydney', 'Victoria'
]
