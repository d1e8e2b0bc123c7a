export * from './contract/index.ts';
