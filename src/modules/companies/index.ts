export { CompanyService } from './service.js';
export { type Scope, type KeyLookup, environmentOfKey, hashKey, looksLikeKey } from './api-keys.js';
export { sellerProfile, lockCompany } from './repo.js';
