export * from './schemas.js';
export { storedViewForm, transactionView, withQrImage, withQrImagesDrawn, withoutQrImage, type TransactionView, type ReceivableView } from './view.js';
export { TransactionService, type ProviderPaymentOutcome, type ReceivableReversal, type ReceivablesPort } from './service.js';
export type { SearchQuery } from './selection.js';
export { REFUND_STATES } from './selection.js';
export type { ExportedTransaction } from './repo.js';
export { companyOfTransaction, countLiveOfLink, countPaidByLink, insertTransactionFragment } from './repo.js';
export { transactionRoutes, sandboxTransactionRoutes } from './routes.js';
