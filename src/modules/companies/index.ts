export { CompanyService, type AccountRecord, type CompanyRecord, type KeyRecord } from './service.js';
export { SCOPES, type Scope, type KeyGrant, type KeyLookup, environmentOfKey, generateKey, hashKey, looksLikeKey } from './api-keys.js';
export { sellerProfile, lockCompany, type SellerProfile } from './repo.js';
