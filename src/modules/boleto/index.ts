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
} from './febraban.js';
