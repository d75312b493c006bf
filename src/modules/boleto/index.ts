// Public surface of the boleto module: FEBRABAN barcode and digitable line.
export {
  buildBoleto,
  digitableLineToBarcode,
  dueDateFactor,
  formatDigitableLine,
  mod10,
  mod11Barcode,
  sandboxFreeField,
  validateDigitableLine,
  FIRST_FACTOR_DATE,
  LAST_FACTOR_DATE,
  MAX_SANDBOX_OUR_NUMBER,
  SANDBOX_ACCOUNT,
  SANDBOX_AGENCY,
  SANDBOX_WALLET,
} from './febraban.js';
export type { Boleto, BoletoInput } from './febraban.js';
