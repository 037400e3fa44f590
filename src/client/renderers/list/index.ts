// The list screen of an entity.
export { EntityList, type EntityListProps } from './EntityList.tsx';
