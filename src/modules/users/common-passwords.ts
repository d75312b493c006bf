/**
 * The common passwords a dashboard password may not be, bundled (nothing is
 * fetched): the words and names people build passwords from, in Portuguese
 * and English, and the keyboard walks and phrases that lists of leaked
 * passwords are full of. A password is refused when, once its case, spaces,
 * separators and common letter-for-symbol swaps (`p@ssw0rd`) are folded, it is
 * one of the phrases, or one of the words with nothing but digits and symbols
 * before or after it (`Senha@2024`, `flamengo123456`, `!!palmeiras!!`). The
 * lists are data, one entry a line; add to them, never a regular expression.
 */

/** Words and names that, with digits and symbols around them, make most leaked passwords. */
const WORDS = `
password passw passwd pass senha senhas minhasenha suasenha novasenha senhanova senhaforte senhasegura trocarsenha mudarsenha
contrasena motdepasse passwort parola wachtwoord
admin administrador administrator root user usuario usuaria teste test tester demo sample exemplo example default changeme mudar trocar
login logon entrar acesso access acessar welcome bemvindo bemvinda hello helloworld olamundo ola oi
qwerty qwertz azerty qwertyuiop qwertyuiopasdfghjkl asdf asdfgh asdfghjkl zxcvbn zxcvbnm qazwsx qazwsxedc wsxedc abc abcd abcde abcdef
iloveyou iloveu loveyou teamo euteamo amor amores meuamor amorzinho amormeu vidaminha minhavida paixao carinho
jesus jesuscristo cristo deus deuseamor deusefiel deuseminhavida deusebom senhor senhorjesus gloria aleluia fe
familia mae pai filho filha filhos irmao irma vovo bebe nene
brasil brazil brasileiro brasileira saopaulo riodejaneiro rio bahia minas
flamengo mengo mengao corinthians timao palmeiras verdao saopaulofc tricolor vasco vascodagama gremio internacional inter cruzeiro
atletico galo santos botafogo fluminense bahia sport vitoria coritiba athletico paranaense fortaleza ceara
princesa principe gatinha gatinho gata gato flor estrela anjo anjinho lua sol ceu mar
felicidade feliz saudade sucesso vitoria dinheiro rico rica trabalho empresa loja vendas venda pagamento pagamentos cobranca cobrancas
financeiro financas caixa banco cartao cartaodecredito credito debito boleto pix dashboard painel sistema
monkey dragon sunshine princess football futebol baseball soccer basketball master mustang shadow superman batman spiderman
starwars pokemon naruto goku whatever freedom trustno letmein hunter ranger killer computer internet secret segredo
michael jennifer charlie jordan thomas daniel jessica ashley michelle robert andrew joshua matthew
maria mariana ana anaclara joao jose pedro paulo lucas gabriel gabriela rafael rafaela felipe fernanda fernando carlos carla
juliana julia bruno bruna camila amanda leticia beatriz larissa mateus matheus guilherme gustavo rodrigo ricardo marcos marcelo
google facebook instagram whatsapp samsung iphone apple microsoft windows linux android netflix youtube mercadopago nubank
matrix summer winter spring autumn verao inverno primavera outono janeiro fevereiro marco abril maio junho julho agosto setembro outubro novembro dezembro
`;

/** Whole phrases and keyboard walks, as they are typed (case, spaces and separators do not matter). */
const PHRASES = `
1q2w3e4r5t6y 1q2w3e4r5t6y7u 1q2w3e4r5t6y7u8i 1q2w3e4r5t6y7u8i9o0p q1w2e3r4t5y6 q1w2e3r4t5y6u7 q1w2e3r4t5y6u7i8o9p0
1qaz2wsx3edc 1qaz2wsx3edc4rfv 1qazxsw23edc zaq12wsxcde3 zaq1xsw2cde3 zaq1zaq1zaq1 !qaz@wsx#edc qazwsxedcrfv qazwsxedcrfvtgb
qwertyuiop12 qwertyuiop123 qwerty123456 qwerty1234567 qwertyuiop1234 asdfghjkl123 asdfghjkl1234 zxcvbnm12345 zxcvbnm123456
qweasdzxc123 qweasdzxcqwe qweasdqweasd 123qweasdzxc 123qweasd123 1234qwerasdf 1234qwerasdfzxcv qwer1234asdf
a1b2c3d4e5f6 a1s2d3f4g5h6 1a2b3c4d5e6f abc123456789 abcd12345678 abcdef123456 123456abcdef 123456qwerty 123456789abc
147258369147 147258369258 159357159357 159753159753 789456123789 741852963741 741852963 963852741963 1478963214789
123456789012 1234567890123 12345678901234 098765432109 0987654321098 987654321012 01234567890123
iloveyou1234 iloveyouforever iloveyousomuch iloveyoubaby ilovemymom ilovemyfamily ilovejesus ilovegod
correcthorsebatterystaple correcthorse trustno1trustno1 letmeinletmein passwordpassword
senhasenha123 minhasenha123 minhasenhaforte minhasenhasegura senhadificil senhamuitoforte senhasupersegura
euteamomuito teamomuito teamoparasempre amorparasempre amoreterno deusemaisforte jesusteama jesusmeama jesusvoltara
deusefielsempre deuseperfeito deusmeguie gloriaadeus obrigadodeus tudoposso tudopossonaqueleque
brasil2014copa pentacampeao hexacampeao vaibrasil ordemeprogresso
flamengoateomorrer flamengosempre sccorinthians corinthiansminhavida palmeirassempre vascodagama1898
administrator123 administrador123 admin123456 admin1234567 admin@123456 root12345678 welcome12345 welcome123456
changeme1234 changeme123456 default12345 password1234 password12345 password123456 password1234567 password123!
p@ssw0rd1234 p@ssword1234 passw0rd1234 pa55w0rd1234 senha1234567 senha12345678 senha123456789
`;

/** Letters people swap for digits or symbols, folded back before the words are looked up. */
const SWAPS: Record<string, string> = { '@': 'a', '4': 'a', '8': 'b', '3': 'e', '1': 'i', '!': 'i', '0': 'o', '$': 's', '5': 's', '7': 't', '+': 't', '2': 'z' };

/** Case, compatibility forms (full-width, ligatures) and accents folded, spaces and separators dropped. */
function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[\s._-]/g, '');
}

const entries = (list: string): string[] => list.split(/\s+/).filter(Boolean).map(fold);

let words: Set<string> | undefined;
let phrases: Set<string> | undefined;

/** One of the common passwords: a phrase, or a word with only digits and symbols around it. */
export function isCommonPassword(password: string): boolean {
  words ??= new Set(entries(WORDS));
  phrases ??= new Set(entries(PHRASES));
  const folded = fold(password);
  if (phrases.has(folded)) return true;
  // What is left once the digits and symbols at both ends go, then with the swapped letters folded back.
  const core = folded.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '');
  if (core === '') return false;
  return words.has(core) || words.has([...core].map((c) => SWAPS[c] ?? c).join(''));
}
