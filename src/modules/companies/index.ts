export { CompanyService, type KeyCreator, type KeyRecord } from './service.js';
export { type Scope, type KeyLookup, hashKey, keyFormat, shownKeyPrefix } from './api-keys.js';
export { approvedDocuments, sellerProfile, lockCompany, type SellerProfile } from './repo.js';
export { cachedSellerProfile } from './seller-profiles.js';
