/** The sandbox demo's company and recipient accounts, created on the first start of an empty sandbox (bootstrap.ts). */
export const DEMO = {
  company: { name: 'Loja Demo Ltda', document: '11222333000181' },
  accounts: [
    { name: 'Marketplace Parceiro Ltda', document: '11444777000161' },
    { name: 'Ana Souza', document: '52998224725' },
  ],
};
