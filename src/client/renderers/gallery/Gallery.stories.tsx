// The schema gallery: every manifest entity × view, generated at run time from the schema files.
import type { Meta, StoryObj } from '@storybook/react-vite';
import { catalog } from '../catalog.ts';
import { signInStoryUser } from '../displays/FakeApiStory.tsx';
import { GALLERY_VIEWS, GalleryPane, SchemaGallery, type GalleryView } from './SchemaGallery.tsx';
import { buttonsOf } from './permissions.ts';

const entityKeys = Object.keys(catalog().entities);

const meta: Meta = {
  title: 'Gallery/Every document type',
  parameters: { layout: 'fullscreen' },
  // an administrator's buttons unless the toolbar's role says otherwise
  beforeEach: () => signInStoryUser(buttonsOf('administrator')),
};
export default meta;

/** Pick an entity on the left and a view on top. */
export const Browse: StoryObj = {
  render: () => <SchemaGallery />,
};

/** One entity and view chosen with the controls (every manifest entity is an option). */
export const OneEntity: StoryObj<{ entity: string; view: GalleryView }> = {
  args: { entity: 'materialTotalDemand', view: 'form' },
  argTypes: {
    entity: { control: 'select', options: entityKeys },
    view: { control: 'inline-radio', options: [...GALLERY_VIEWS] },
  },
  render: ({ entity, view }) => (
    <div style={{ padding: 16 }}>
      <GalleryPane key={`${entity}-${view}`} model={catalog().entities[entity]} view={view} />
    </div>
  ),
};
