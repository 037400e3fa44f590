// What the cost rules show on the home page (pages/Home.tsx): the cost overview of the user's projects.
import { CostOverview } from './stats/CostOverview.tsx';

export const COST_HOME_CARDS = [CostOverview] as const;
