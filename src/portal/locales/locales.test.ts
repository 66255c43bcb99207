import { checkCatalogues } from '../../../tests/helpers/catalogues';
import en from './en.json';
import si from './si.json';
import ta from './ta.json';

// Texts that are the same in every language: a dash, or a name that is not translated.
checkCatalogues('portal', en, { si, ta }, ['profile.none']);
