export { CompanyService, OperatorError, type CompanyRecord, type KeyRecord } from './service.js';
export { SCOPES, type Scope, generateKey, hashKey } from './api-keys.js';
export { sellerProfile, lockCompany, type SellerProfile } from './repo.js';
