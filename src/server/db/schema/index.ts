export * from './branches';
export * from './users';
export * from './settings';
export * from './courses';
export * from './treatments';
export * from './jobs';
export * from './payments';
export * from './audit';
