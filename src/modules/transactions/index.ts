export * from './schemas.js';
export { storedViewForm, transactionView, withQrImage, withQrImagesDrawn, withoutQrImage, type TransactionView, type ReceivableView } from './view.js';
export { TransactionService, type ExportedTransaction, type ProviderPaymentOutcome, type ReceivableReversal, type ReceivablesPort, type SearchQuery } from './service.js';
export { countLiveOfLink, countPaidByLink, insertTransactionFragment } from './repo.js';
export { transactionRoutes, sandboxTransactionRoutes } from './routes.js';
