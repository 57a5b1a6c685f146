import { seededRandom } from '../src/shared/seeded-random';
import type { SourceRow } from './match-dataset';

/**
 * Source rows made up from word lists, in the archive's shape: what `match.test.ts` runs the benchmark on
 * (small, fast, no file beside the repository). Some titles carry features, remixes, remaster or edit
 * notes and names in other scripts, so every kind of hard row the dataset builds has material.
 */

const WORDS = [
  'Golden',
  'Hour',
  'Paper',
  'Boats',
  'Midnight',
  'City',
  'Ocean',
  'Eyes',
  'Silver',
  'Lining',
  'Wild',
  'Hearts',
  'Electric',
  'Dreams',
  'Summer',
  'Rain',
  'Northern',
  'Lights',
  'Broken',
  'Wings',
  'Neon',
  'Nights',
  'Fading',
  'Echoes',
  'Crystal',
  'River',
  'Lonely',
  'Road',
  'Velvet',
  'Sky',
  'Burning',
  'Bridges',
  'Hollow',
  'Moon',
  'Sugar',
  'Rush',
  'Paper',
  'Planes',
  'Quiet',
  'Storm',
  'Faded',
  'Memories',
  'Second',
  'Chance',
  'Falling',
  'Stars',
  'Glass',
  'House',
  'Open',
  'Road',
  'Secret',
  'Garden',
  'Wanderer',
  'Home',
];
const NATIVE_TITLES = [
  'Москва любит',
  'Зимняя ночь',
  'Дорога домой',
  'Звезда по имени',
  'Весна',
  'Огонь',
  'Ветер перемен',
  'Облака',
  'Полночь',
  'Берег',
  'Χριστούγεννα',
  'Θάλασσα',
  'Αγάπη μου',
  '약속',
  '사랑해요',
  '우리가 그려왔던',
  '달리',
  '봄날',
  'ハルカ',
  'ギラギラ',
  'ドライフラワー',
  'ひとりじゃない',
  '夜に駆ける',
  '梦蝶',
  '晴天',
  '稻香',
  '小幸运',
  '后来',
];
const FIRST = [
  'Mira',
  'Jonah',
  'Ava',
  'Leon',
  'Nora',
  'Theo',
  'Iris',
  'Felix',
  'Luna',
  'Oscar',
  'Ruby',
  'Elias',
];
const LAST = ['Vale', 'Stone', 'Reyes', 'Hart', 'Moreau', 'Lind', 'Okafor', 'Brandt', 'Sato', 'Kowalski'];
const BANDS = [
  'The Lanterns',
  'Glass Harbor',
  'Paper Tigers',
  'Night Swimmers',
  'Blue Atlas',
  'Velvet Static',
];
const NATIVE_ARTISTS = [
  'Земфира',
  'Сплин',
  'Баста',
  'アイナ',
  'ヨルシカ',
  '아이유',
  '방탄소년단',
  '周杰伦',
  'Νατάσσα',
];
const REMIXERS = ['Kaskade', 'Claptone', 'Fisher', 'Sofi Tukker'];

export function syntheticRows(count: number, seed: number): SourceRow[] {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const person = () => (random() < 0.25 ? pick(BANDS) : `${pick(FIRST)} ${pick(LAST)}`);
  const rows: SourceRow[] = [];
  for (let index = 0; index < count; index++) {
    const native = random() < 0.1;
    let title = native
      ? pick(NATIVE_TITLES)
      : Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(WORDS)).join(' ');
    const artists = [native && random() < 0.6 ? pick(NATIVE_ARTISTS) : person()];
    const roll = random();
    if (roll < 0.1) {
      const featured = person();
      artists.push(featured);
      title = `${title} (feat. ${featured})`;
    } else if (roll < 0.16) {
      const remixer = pick(REMIXERS);
      artists.push(remixer);
      title = `${title} - ${remixer} Remix`;
    } else if (roll < 0.22) {
      title = `${title} - Remastered ${1995 + Math.floor(random() * 25)}`;
    } else if (roll < 0.25) {
      title = `${title} - Radio Edit`;
    } else if (roll < 0.3) {
      artists.push(person());
    }
    const album =
      random() < 0.5 ? title.replace(/ - .*$/, '') : Array.from({ length: 2 }, () => pick(WORDS)).join(' ');
    rows.push({
      id: `syn${String(index).padStart(6, '0')}`,
      title,
      artists,
      album,
      durationMs: (120 + Math.floor(random() * 180)) * 1000 + Math.floor(random() * 1000),
    });
  }
  return rows;
}
