export { noticeShows, waitingTitle } from './waiting-title';
